package io.fpgamr.yarn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fpgamr.accel.SpeedProfile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.api.records.NodeAttribute;
import org.apache.hadoop.yarn.nodelabels.NodeLabelUtil;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The NodeManager's speed attributes: the profile file as YARN's distributed node attributes,
 * valid by YARN's own check, read again when the file changes, none while there is no file.
 */
class SpeedAttributesProviderTest {
    @TempDir
    Path dir;

    private static SpeedProfile profile(double cpuSearch) {
        return new SpeedProfile(Map.of("arch", "amd64"),
            List.of(new SpeedProfile.Speed("cpu", "search", cpuSearch, SpeedProfile.Source.MEASURED, "cpu:avx2", false)));
    }

    private static Map<String, String> values(Set<NodeAttribute> attrs) {
        return attrs.stream().collect(Collectors.toMap(a -> a.getAttributeKey().getAttributeName(), NodeAttribute::getAttributeValue));
    }

    @Test
    void theProfileIsPublishedAndFollowsItsFile() throws Exception {
        Path file = dir.resolve("speed-profile.properties");
        Configuration conf = new Configuration(false);
        conf.set(SpeedAttributesProvider.PROFILE, file.toString());
        SpeedAttributesProvider p = new SpeedAttributesProvider();
        p.init(conf);
        try {
            assertEquals(Set.of(), p.getDescriptors(), "no file, no attributes");

            profile(2.0e8).write(file);
            p.refresh();
            Set<NodeAttribute> attrs = p.getDescriptors();
            NodeLabelUtil.validateNodeAttributes(attrs);
            assertTrue(attrs.stream().allMatch(a -> a.getAttributeKey().getAttributePrefix().equals(NodeAttribute.PREFIX_DISTRIBUTED)));
            assertEquals("2.0000e08", values(attrs).get("fpgamr-cpu-search"));
            assertEquals("measured", values(attrs).get("fpgamr-cpu-search-source"));

            // a profiler run after a change: the new figure is published at the next refresh
            profile(3.0e8).write(file);
            Files.setLastModifiedTime(file, FileTime.fromMillis(Files.getLastModifiedTime(file).toMillis() + 2000));
            p.refresh();
            assertEquals("3.0000e08", values(p.getDescriptors()).get("fpgamr-cpu-search"));

            Files.writeString(file, "cpu.search=fast\n");
            Files.setLastModifiedTime(file, FileTime.fromMillis(Files.getLastModifiedTime(file).toMillis() + 4000));
            p.refresh();
            assertEquals(Set.of(), p.getDescriptors(), "an unreadable profile publishes nothing");
        } finally {
            p.stop();
        }
    }
}
