package io.fpgamr.yarn;

import io.fpgamr.accel.SpeedProfile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TimerTask;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.api.records.NodeAttribute;
import org.apache.hadoop.yarn.api.records.NodeAttributeType;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.nodemanager.nodelabels.NodeAttributesProvider;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Publishes this node's speed for the MD5 job (its {@link SpeedProfile}, written by the profiler
 * {@code fpgamr rate --profile FILE}) as YARN node attributes, so that the ResourceManager serves
 * every node's speed to a job client ({@code YarnClient.getNodeToAttributes}). Set as the
 * NodeManager's attribute provider:
 * {@code yarn.nodemanager.node-attributes.provider=io.fpgamr.yarn.SpeedAttributesProvider}, with
 * {@value #PROFILE} naming the file. The file is read again at every
 * {@code yarn.nodemanager.node-attributes.provider.fetch-interval-ms} when it changed: a profiler
 * run after a new design or on a new node reaches the cluster without a restart. A missing or
 * unreadable file publishes nothing (a log line says why); the job then gives the node the
 * cluster's own figure. An operator overrides a speed with YARN's centralized attributes
 * ({@code yarn nodeattributes -replace}), which the job client prefers.
 */
public class SpeedAttributesProvider extends NodeAttributesProvider {
    private static final Logger LOG = LoggerFactory.getLogger(SpeedAttributesProvider.class);
    /** The profile file this node publishes. */
    public static final String PROFILE = "fpgamr.speed.profile";
    public static final String DEFAULT_PROFILE = "/var/lib/fpgamr/speed-profile.properties";

    private Path file;
    private FileTime read;

    public SpeedAttributesProvider() {
        super(SpeedAttributesProvider.class.getSimpleName());
    }

    @Override
    protected void serviceInit(Configuration conf) throws Exception {
        file = Path.of(conf.get(PROFILE, DEFAULT_PROFILE));
        setIntervalTime(conf.getLong(YarnConfiguration.NM_NODE_ATTRIBUTES_PROVIDER_FETCH_INTERVAL_MS,
            YarnConfiguration.DEFAULT_NM_NODE_ATTRIBUTES_PROVIDER_FETCH_INTERVAL_MS));
        super.serviceInit(conf);
        refresh();
    }

    /** Reads the file if it changed since the last read, and publishes it. */
    void refresh() {
        try {
            FileTime modified = Files.getLastModifiedTime(file);
            if (modified.equals(read)) {
                return;
            }
            SpeedProfile profile = SpeedProfile.read(file);
            setDescriptors(attributes(profile));
            read = modified;
            LOG.info("speed profile {} published: {}", file, profile.speeds().stream().map(s -> s.kind() + "." + s.mode() + " "
                + s.describe()).toList());
        } catch (IOException | IllegalArgumentException e) {
            if (read != null || getDescriptors() == null) {
                LOG.warn("no speed profile published: {}: {}", file, e.getMessage());
            }
            setDescriptors(Set.of());
            read = null;
        }
    }

    /** The profile's attributes under YARN's prefix for attributes a node publishes itself. */
    static Set<NodeAttribute> attributes(SpeedProfile profile) {
        Set<NodeAttribute> set = new HashSet<>();
        for (Map.Entry<String, String> a : profile.toAttributes().entrySet()) {
            set.add(NodeAttribute.newInstance(NodeAttribute.PREFIX_DISTRIBUTED, a.getKey(), NodeAttributeType.STRING, a.getValue()));
        }
        return set;
    }

    @Override
    public TimerTask createTimerTask() {
        return new TimerTask() {
            @Override
            public void run() {
                refresh();
            }
        };
    }

    @Override
    protected void cleanUp() {
    }
}
