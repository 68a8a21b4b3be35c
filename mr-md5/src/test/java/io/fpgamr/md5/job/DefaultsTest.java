package io.fpgamr.md5.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fpgamr.md5.shuffle.KeyRunShuffle;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapreduce.MRConfig;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.junit.jupiter.api.Test;

class DefaultsTest {
    /** A configuration written out and read back, as a client configuration file or a job.xml is. */
    private static Configuration roundTrip(Configuration conf) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        conf.writeXml(out);
        Configuration read = new Configuration(false);
        read.addResource(new ByteArrayInputStream(out.toByteArray()), "client-conf.xml");
        read.size();
        return read;
    }

    @Test
    void hadoopsDefaultIsNotTheUsersEvenAfterAFile() throws IOException {
        JobConf conf = new JobConf();
        assertFalse(Defaults.given(conf, MRConfig.SHUFFLE_CONSUMER_PLUGIN));
        Configuration read = roundTrip(conf);
        assertEquals("org.apache.hadoop.mapreduce.task.reduce.Shuffle", read.get(MRConfig.SHUFFLE_CONSUMER_PLUGIN));
        assertFalse(Defaults.given(read, MRConfig.SHUFFLE_CONSUMER_PLUGIN));
        Defaults.set(read, MRConfig.SHUFFLE_CONSUMER_PLUGIN, KeyRunShuffle.class.getName());
        assertEquals(KeyRunShuffle.class.getName(), read.get(MRConfig.SHUFFLE_CONSUMER_PLUGIN));
    }

    @Test
    void usersValueIsKeptBeforeAndAfterAFile() throws IOException {
        JobConf conf = new JobConf();
        conf.set(MRJobConfig.IO_SORT_FACTOR, "7", "from command line");
        Defaults.set(conf, MRJobConfig.IO_SORT_FACTOR, 100);
        assertEquals("7", conf.get(MRJobConfig.IO_SORT_FACTOR));
        Configuration read = roundTrip(conf);
        assertTrue(Defaults.given(read, MRJobConfig.IO_SORT_FACTOR));
        Defaults.set(read, MRJobConfig.IO_SORT_FACTOR, 100);
        assertEquals("7", read.get(MRJobConfig.IO_SORT_FACTOR));
    }

    @Test
    void unsetKeyIsSet() {
        Configuration conf = new Configuration(false);
        assertFalse(Defaults.given(conf, "fpgamr.test.unset"));
        Defaults.set(conf, "fpgamr.test.unset", 3);
        assertEquals("3", conf.get("fpgamr.test.unset"));
    }
}
