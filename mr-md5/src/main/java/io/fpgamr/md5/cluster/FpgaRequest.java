package io.fpgamr.md5.cluster;

import io.fpgamr.accel.design.DesignPackage;
import io.fpgamr.accel.design.FpgaContainer;
import io.fpgamr.md5.cli.RunConfig;
import io.fpgamr.md5.cli.UsageException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.MRConfig;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.yarn.api.records.NodeReport;
import org.apache.hadoop.yarn.api.records.NodeState;
import org.apache.hadoop.yarn.api.records.ResourceTypeInfo;
import org.apache.hadoop.yarn.client.api.YarnClient;
import org.apache.hadoop.yarn.util.resource.ResourceUtils;

/**
 * The FPGA request of a run on YARN: {@code --accel fpga} asks for one {@value FpgaContainer#RESOURCE}
 * per map (after checking that the cluster has any), and {@code fpga} and {@code auto} ship the
 * design package through the distributed cache for the NodeManager to load (see yarn-fpga-resource).
 */
public final class FpgaRequest {
    /** The design the embedded cluster's maps need when the run names none: the simulated device's 4-pipeline model. */
    public static final String EMBEDDED_DESIGN = "vsim-p4";
    private static final String VSIM_DESIGN = "vsim-p";

    private FpgaRequest() {
    }

    /** The pipelines of {@link #EMBEDDED_DESIGN}'s model. */
    static int embeddedDesignPipelines() {
        return Integer.parseInt(EMBEDDED_DESIGN.substring(VSIM_DESIGN.length()));
    }

    public static boolean isVsimDesign(String name) {
        return name.matches(VSIM_DESIGN + "[0-9]+");
    }

    /**
     * Sets the request in {@code conf}, before anything else of the run starts; returns the design's
     * description, or null when no design goes with the job.
     */
    public static String make(RunConfig config, Configuration conf) throws UsageException {
        if (!MRConfig.YARN_FRAMEWORK_NAME.equals(conf.get(MRConfig.FRAMEWORK_NAME)) || !config.engine().usesFpga()) {
            return null;
        }
        if (config.fpgaOnly()) {
            checkFpgasOffered(conf);
            conf.setLong(MRJobConfig.MAP_RESOURCE_TYPE_PREFIX + FpgaContainer.RESOURCE, 1);
        }
        conf.set(MRJobConfig.MAP_ENV + "." + FpgaContainer.ACCEL_ENV, config.engine().kind().name().toLowerCase(Locale.ROOT));
        boolean embedded = config.cluster() instanceof ClusterTarget.Embedded;
        String name = config.design() != null ? config.design() : embedded ? EMBEDDED_DESIGN : null;
        if (name == null) {
            return null;
        }
        String uri;
        String described;
        try {
            if (isVsimDesign(name)) {
                int pipelines = Integer.parseInt(name.substring(VSIM_DESIGN.length()));
                Path model;
                try {
                    model = DesignPackage.findVsimModel(pipelines);
                } catch (IOException e) {
                    if (config.design() == null && !config.fpgaOnly()) {
                        return null; // auto with the default design: no simulated model built, the maps hash on the CPU
                    }
                    throw e;
                }
                Path dir = Path.of(System.getProperty("java.io.tmpdir"), "fpgamr-designs-" + System.getProperty("user.name"));
                DesignPackage d = DesignPackage.createVsim(dir.resolve("md5acc-" + name + ".zip"), pipelines, model);
                uri = d.file().toUri().toString();
                described = d.describe();
            } else if (name.contains("://")) {
                uri = name;
                described = name;
            } else {
                DesignPackage d = DesignPackage.open(Path.of(name).toAbsolutePath());
                uri = d.file().toUri().toString();
                described = d.describe();
            }
        } catch (IOException e) {
            throw new UsageException("--design " + name + ": " + e.getMessage());
        }
        String files = conf.get("tmpfiles");
        conf.set("tmpfiles", (files == null || files.isBlank() ? "" : files + ",") + uri + "#" + FpgaContainer.DESIGN_LINK);
        conf.set(MRJobConfig.MAP_ENV + "." + FpgaContainer.DESIGN_ENV, FpgaContainer.DESIGN_LINK);
        return described;
    }

    /** Fails before submission, in one line, when no running node offers an FPGA: such maps would wait forever. */
    private static void checkFpgasOffered(Configuration conf) throws UsageException {
        try (YarnClient yarn = YarnClient.createYarnClient()) {
            yarn.init(conf);
            yarn.start();
            List<ResourceTypeInfo> types = yarn.getResourceTypeInfo();
            if (types.stream().noneMatch(t -> t.getName().equals(FpgaContainer.RESOURCE))) {
                throw new UsageException("--accel fpga: no FPGA in the cluster: its ResourceManager has no resource type "
                    + FpgaContainer.RESOURCE + " (see yarn-fpga-resource/README.md)");
            }
            if (!ResourceUtils.getResourceTypes().containsKey(FpgaContainer.RESOURCE)) {
                ResourceUtils.reinitializeResources(types);
            }
            long fpgas = 0;
            int nodes = 0;
            for (NodeReport n : yarn.getNodeReports(NodeState.RUNNING)) {
                nodes++;
                fpgas += n.getCapability().getResourceValue(FpgaContainer.RESOURCE);
            }
            if (fpgas == 0) {
                throw new UsageException("--accel fpga: no FPGA in the cluster: none of its " + nodes + " running node"
                    + (nodes == 1 ? "" : "s") + " offers " + FpgaContainer.RESOURCE);
            }
        } catch (UsageException e) {
            throw e;
        } catch (Exception e) {
            throw new UsageException("--accel fpga: cannot ask the ResourceManager for FPGAs: " + UsageException.firstLine(e));
        }
    }
}
