package io.fpgamr.md5.cluster;

import io.fpgamr.accel.EngineSpec;
import io.fpgamr.accel.NativeArtifacts;
import io.fpgamr.accel.design.DesignPackage;
import io.fpgamr.accel.design.FpgaContainer;
import io.fpgamr.md5.balance.ClusterSpeeds;
import io.fpgamr.md5.run.UsageException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
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
 * design package through the distributed cache for the NodeManager to load (see yarn-fpga-resource);
 * a simulated design goes once per platform of the nodes offering FPGAs (an ARM-FPGA node's
 * containers load the armhf build of the model).
 */
public final class FpgaRequest {
    /** The design the embedded cluster's maps need when the run names none: the simulated device's 4-pipeline model. */
    public static final String EMBEDDED_DESIGN = "vsim-p4";
    private static final String VSIM_DESIGN = "vsim-p";

    private FpgaRequest() {
    }

    /** The pipelines of {@link #EMBEDDED_DESIGN}'s model (the report names the design whose cycles it counted). */
    public static int embeddedDesignPipelines() {
        return Integer.parseInt(EMBEDDED_DESIGN.substring(VSIM_DESIGN.length()));
    }

    public static boolean isVsimDesign(String name) {
        return name.matches(VSIM_DESIGN + "[0-9]+");
    }

    /**
     * Sets the request in {@code conf}, before anything else of the run starts; returns the design's
     * description, or null when no design goes with the job.
     *
     * @param engine   the maps' engine ({@code --accel})
     * @param fpgaOnly whether every map needs an FPGA ({@code --accel fpga})
     * @param design   the design the user named ({@code --design}), or null
     * @param cluster  where the run's jobs go
     */
    public static String make(EngineSpec engine, boolean fpgaOnly, String design, ClusterTarget cluster, Configuration conf)
        throws UsageException {
        if (!MRConfig.YARN_FRAMEWORK_NAME.equals(conf.get(MRConfig.FRAMEWORK_NAME)) || !engine.usesFpga()) {
            return null;
        }
        if (fpgaOnly) {
            checkFpgasOffered(conf);
            conf.setLong(MRJobConfig.MAP_RESOURCE_TYPE_PREFIX + FpgaContainer.RESOURCE, 1);
        }
        conf.set(MRJobConfig.MAP_ENV + "." + FpgaContainer.ACCEL_ENV, engine.kind().name().toLowerCase(Locale.ROOT));
        boolean embedded = cluster instanceof ClusterTarget.Embedded;
        String name = design != null ? design : embedded ? EMBEDDED_DESIGN : null;
        if (name == null) {
            return null;
        }
        List<String> shipped = new ArrayList<>(); // uri#link
        String described;
        try {
            if (isVsimDesign(name)) {
                // one package per platform of the nodes that offer FPGAs: each node loads its containers' build
                int pipelines = Integer.parseInt(name.substring(VSIM_DESIGN.length()));
                List<String> parts = new ArrayList<>();
                for (String platform : fpgaPlatforms(conf)) {
                    Path model;
                    try {
                        model = DesignPackage.findVsimModel(pipelines, platform);
                    } catch (IOException e) {
                        if (design == null && !fpgaOnly) {
                            continue; // auto with the default design: no model built, those nodes' maps hash on the CPU
                        }
                        throw e;
                    }
                    boolean own = platform.equals(NativeArtifacts.platform());
                    Path dir = Path.of(System.getProperty("java.io.tmpdir"), "fpgamr-designs-" + System.getProperty("user.name"));
                    DesignPackage d = DesignPackage.createVsim(dir.resolve("md5acc-" + name + (own ? "" : "-" + platform) + ".zip"),
                        pipelines, model, platform);
                    shipped.add(d.file().toUri() + "#" + (own ? FpgaContainer.DESIGN_LINK : FpgaContainer.designLink(platform)));
                    parts.add(parts.isEmpty() ? d.describe() : platform + " build sha256 " + d.sha256().substring(0, 12));
                }
                if (shipped.isEmpty()) {
                    return null;
                }
                described = String.join("; ", parts);
            } else if (name.contains("://")) {
                shipped.add(name + "#" + FpgaContainer.DESIGN_LINK);
                described = name;
            } else {
                DesignPackage d = DesignPackage.open(Path.of(name).toAbsolutePath());
                shipped.add(d.file().toUri() + "#" + FpgaContainer.DESIGN_LINK);
                described = d.describe();
            }
        } catch (IOException e) {
            throw new UsageException("--design " + name + ": " + e.getMessage());
        }
        String files = conf.get("tmpfiles");
        conf.set("tmpfiles", (files == null || files.isBlank() ? "" : files + ",") + String.join(",", shipped));
        conf.set(MRJobConfig.MAP_ENV + "." + FpgaContainer.DESIGN_ENV, String.join(",", shipped.stream()
            .map(u -> u.substring(u.lastIndexOf('#') + 1)).toList()));
        return described;
    }

    /**
     * The platforms of the containers of the cluster's nodes that offer FPGAs, this JVM's first: a
     * node's is its speed profile's architecture (an ARM-FPGA node's profile was measured in its
     * containers' armhf JVM), this JVM's where the cluster gives none.
     */
    private static List<String> fpgaPlatforms(Configuration conf) throws UsageException {
        Set<String> platforms = new TreeSet<>();
        try {
            for (ClusterSpeeds.Node n : ClusterSpeeds.read(conf)) {
                String arch = n.profile().node().get("arch");
                if (n.fpgaSlots() > 0) {
                    platforms.add(arch == null || arch.isBlank() ? NativeArtifacts.platform() : NativeArtifacts.platform("Linux", arch));
                }
            }
        } catch (IOException e) {
            throw new UsageException("--design: " + UsageException.firstLine(e));
        }
        List<String> out = new ArrayList<>();
        if (platforms.isEmpty() || platforms.remove(NativeArtifacts.platform())) {
            out.add(NativeArtifacts.platform());
        }
        out.addAll(platforms);
        return out;
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
