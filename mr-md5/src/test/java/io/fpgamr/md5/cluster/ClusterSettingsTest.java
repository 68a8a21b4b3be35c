package io.fpgamr.md5.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.HdfsConfiguration;
import org.apache.hadoop.hdfs.client.HdfsClientConfigKeys;
import org.junit.jupiter.api.Test;

/** The embedded cluster's HDFS client settings: a closed file's completion asked again after 20 ms, not Hadoop's 400. */
class ClusterSettingsTest {
    private static final String DELAY = HdfsClientConfigKeys.BlockWrite.LOCATEFOLLOWINGBLOCK_INITIAL_DELAY_MS_KEY;
    private static final String RETRIES = HdfsClientConfigKeys.BlockWrite.LOCATEFOLLOWINGBLOCK_RETRIES_KEY;

    @Test
    void aClosedFileIsAskedAfterTwentyMillisecondsTenTimes() {
        Configuration conf = new HdfsConfiguration();
        // Hadoop's own defaults (hdfs-default.xml), which the cluster replaces
        assertEquals(400, conf.getInt(DELAY, -1));
        assertEquals(5, conf.getInt(RETRIES, -1));
        ClusterSettings.hdfsClient(conf);
        assertEquals(20, conf.getInt(DELAY, -1));
        assertEquals(10, conf.getInt(RETRIES, -1));
    }

    @Test
    void theUsersSettingWins() {
        Configuration conf = new HdfsConfiguration();
        conf.setInt(DELAY, 400);
        conf.setInt(RETRIES, 5);
        ClusterSettings.hdfsClient(conf);
        assertEquals(400, conf.getInt(DELAY, -1));
        assertEquals(5, conf.getInt(RETRIES, -1));
    }
}
