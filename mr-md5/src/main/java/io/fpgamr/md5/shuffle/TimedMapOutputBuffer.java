package io.fpgamr.md5.shuffle;

import io.fpgamr.md5.job.Md5Counters;
import java.io.IOException;
import org.apache.hadoop.mapred.Counters;
import org.apache.hadoop.mapred.MapTask;
import org.apache.hadoop.mapred.Reporter;
import org.apache.hadoop.mapreduce.TaskCounter;

/**
 * Hadoop's own map-output collector, {@code MapOutputBuffer}, with one clock read each side of its
 * flush: the time a map spends sorting, spilling and merging its output after the map function
 * ({@code MAP_SORT_US}), which the map's own marks cannot see (the flush runs after the mapper's
 * cleanup). Nothing else differs: the study's plain job and fpgamr's job on Hadoop's path use it so
 * that their map time splits as fpgamr's collector's does (chapter 12). Its spills while the map
 * runs are Hadoop's spill thread's, beside the map; the map waits for one only when its buffer is
 * full, inside its write time; so it counts the records spilled before its flush
 * ({@code HADOOP_SPILLED_IN_MAP}): none means no spill ran beside the map, its one spill was the
 * flush's.
 */
public class TimedMapOutputBuffer<K, V> extends MapTask.MapOutputBuffer<K, V> {
    private Reporter reporter;
    private Counters.Counter sortUs;

    @Override
    public void init(Context context) throws IOException, ClassNotFoundException {
        super.init(context);
        reporter = context.getReporter();
        sortUs = reporter.getCounter(Md5Counters.MAP_SORT_US);
        reporter.getCounter(Md5Counters.HADOOP_COLLECTOR_MAPS).increment(1);
    }

    @Override
    public void flush() throws IOException, ClassNotFoundException, InterruptedException {
        // this task's own counter: the map side's spills so far (the reduces' are other tasks')
        reporter.getCounter(Md5Counters.HADOOP_SPILLED_IN_MAP).increment(reporter.getCounter(TaskCounter.SPILLED_RECORDS).getValue());
        long t0 = System.nanoTime();
        super.flush();
        sortUs.increment((System.nanoTime() - t0) / 1000);
    }
}
