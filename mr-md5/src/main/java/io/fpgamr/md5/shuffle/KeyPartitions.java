package io.fpgamr.md5.shuffle;

import java.io.IOException;
import java.util.Arrays;
import java.util.Comparator;
import org.apache.hadoop.io.DataInputBuffer;
import org.apache.hadoop.io.DataOutputBuffer;
import org.apache.hadoop.io.RawComparator;
import org.apache.hadoop.io.serializer.Deserializer;
import org.apache.hadoop.io.serializer.SerializationFactory;
import org.apache.hadoop.io.serializer.Serializer;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapreduce.JobID;
import org.apache.hadoop.mapreduce.task.JobContextImpl;
import org.apache.hadoop.util.ReflectionUtils;

/**
 * Where {@link ByteKeyCollector} puts a one-byte key's records, planned once per map: each key
 * byte's partition, from the job's partitioner applied to the key alone, and each partition's key
 * bytes in the order of the job's sort comparator (the order its segment is written in).
 */
final class KeyPartitions {
    /** The partition of each key byte. */
    final int[] partitionOf = new int[ByteKeyCollector.KEYS];
    /** Each partition's key bytes, in the job's sort order. */
    final int[][] keysOf;

    /**
     * @throws IOException when the key class does not serialize to one byte or the partitioner needs the value
     */
    @SuppressWarnings("unchecked")
    <K, V> KeyPartitions(JobConf job, JobID jobId, int partitions, Class<K> keyClass) throws IOException {
        SerializationFactory serialization = new SerializationFactory(job);
        Deserializer<K> keys = serialization.getDeserializer(keyClass);
        DataInputBuffer in = new DataInputBuffer();
        keys.open(in);
        Serializer<K> out = serialization.getSerializer(keyClass);
        DataOutputBuffer serialized = new DataOutputBuffer();
        out.open(serialized);
        org.apache.hadoop.mapreduce.Partitioner<K, V> newApi = null;
        org.apache.hadoop.mapred.Partitioner<K, V> oldApi = null;
        if (partitions > 1) {
            if (job.getUseNewMapper()) {
                try {
                    newApi = (org.apache.hadoop.mapreduce.Partitioner<K, V>) ReflectionUtils.newInstance(
                        new JobContextImpl(job, jobId).getPartitionerClass(), job);
                } catch (ClassNotFoundException e) {
                    throw new IOException("the job's partitioner class: " + e.getMessage(), e);
                }
            } else {
                oldApi = (org.apache.hadoop.mapred.Partitioner<K, V>) ReflectionUtils.newInstance(job.getPartitionerClass(), job);
            }
        }
        for (int b = 0; b < ByteKeyCollector.KEYS; b++) {
            in.reset(new byte[] {(byte) b}, 1);
            K key = keys.deserialize(null);
            serialized.reset();
            out.serialize(key);
            if (serialized.getLength() != 1 || serialized.getData()[0] != (byte) b) {
                throw new IOException("key class " + keyClass.getName() + " does not serialize to one byte");
            }
            try {
                partitionOf[b] = newApi != null ? newApi.getPartition(key, null, partitions)
                    : oldApi != null ? oldApi.getPartition(key, null, partitions) : 0;
            } catch (RuntimeException e) {
                throw new IOException("the partitioner needs the value: " + e, e);
            }
        }
        RawComparator<K> comparator = job.getOutputKeyComparator();
        Integer[] order = new Integer[ByteKeyCollector.KEYS];
        for (int b = 0; b < order.length; b++) {
            order[b] = b;
        }
        Arrays.sort(order, Comparator.comparing((Integer b) -> new byte[] {(byte) (int) b},
            (x, y) -> comparator.compare(x, 0, 1, y, 0, 1)));
        keysOf = new int[Math.max(1, partitions)][];
        for (int p = 0; p < keysOf.length; p++) {
            final int part = p;
            keysOf[p] = Arrays.stream(order).mapToInt(Integer::intValue).filter(b -> partitionOf[b] == part).toArray();
        }
    }
}
