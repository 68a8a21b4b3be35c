package io.fpgamr.energy;

import java.lang.management.ManagementFactory;
import java.util.LinkedHashMap;
import java.util.Map;
import javax.management.Attribute;
import javax.management.AttributeList;
import javax.management.DynamicMBean;
import javax.management.MBeanAttributeInfo;
import javax.management.MBeanInfo;
import javax.management.ObjectName;

/**
 * A JVM that registers MBeans under the names and with the attributes Hadoop's metrics system
 * gives its daemons' sources (Hadoop:service=...,name=..., string tags beside numeric values), for
 * the JMX exporter agent and energy/jmx/hadoop.yml to turn into Prometheus metrics. Runs for the
 * number of seconds given, then exits.
 */
public final class HadoopNamedBeans {
    /** A metrics2-style dynamic bean: read-only attributes of fixed values. */
    static final class Source implements DynamicMBean {
        final Map<String, Object> attrs;

        Source(Map<String, Object> attrs) {
            this.attrs = attrs;
        }

        @Override
        public Object getAttribute(String name) {
            return attrs.get(name);
        }

        @Override
        public void setAttribute(Attribute attribute) {
            throw new UnsupportedOperationException();
        }

        @Override
        public AttributeList getAttributes(String[] names) {
            AttributeList l = new AttributeList();
            for (String n : names) {
                l.add(new Attribute(n, attrs.get(n)));
            }
            return l;
        }

        @Override
        public AttributeList setAttributes(AttributeList attributes) {
            return new AttributeList();
        }

        @Override
        public Object invoke(String action, Object[] params, String[] signature) {
            throw new UnsupportedOperationException();
        }

        @Override
        public MBeanInfo getMBeanInfo() {
            MBeanAttributeInfo[] info = attrs.entrySet().stream()
                .map(e -> new MBeanAttributeInfo(e.getKey(), e.getValue().getClass().getName(), e.getKey(), true, false, false))
                .toArray(MBeanAttributeInfo[]::new);
            return new MBeanInfo(getClass().getName(), "metrics source", info, null, null, null);
        }
    }

    static Map<String, Object> attrs(Object... kv) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put((String) kv[i], kv[i + 1]);
        }
        return m;
    }

    public static void main(String[] args) throws Exception {
        var server = ManagementFactory.getPlatformMBeanServer();
        server.registerMBean(new Source(attrs("tag.Context", "yarn", "tag.Hostname", "node1", "ContainersLaunched", 12,
            "ContainersRunning", 3, "AllocatedContainers", 3, "AllocatedGB", 6, "AvailableGB", 2)),
            new ObjectName("Hadoop:service=NodeManager,name=NodeManagerMetrics"));
        server.registerMBean(new Source(attrs("tag.Queue", "root", "AppsRunning", 1, "AllocatedContainers", 4)),
            new ObjectName("Hadoop:service=ResourceManager,name=QueueMetrics,q0=root"));
        server.registerMBean(new Source(attrs("tag.Queue", "root.default", "AppsRunning", 1)),
            new ObjectName("Hadoop:service=ResourceManager,name=QueueMetrics,q0=root,q1=default"));
        server.registerMBean(new Source(attrs("tag.Queue", "root.default", "AppsRunning", 1)),
            new ObjectName("Hadoop:service=ResourceManager,name=QueueMetrics,q0=root,q1=default,user=alice"));
        server.registerMBean(new Source(attrs("tag.Context", "yarn", "NumActiveNMs", 1)),
            new ObjectName("Hadoop:service=ResourceManager,name=ClusterMetrics"));
        server.registerMBean(new Source(attrs("tag.Context", "dfs", "BytesWritten", 1048576L, "BlocksWritten", 8L)),
            new ObjectName("Hadoop:service=DataNode,name=DataNodeActivity-node1-9866"));
        server.registerMBean(new Source(attrs("tag.Context", "dfs", "CapacityUsed", 123456789L, "FilesTotal", 42L)),
            new ObjectName("Hadoop:service=NameNode,name=FSNamesystem"));
        System.out.println("ready");
        System.out.flush();
        Thread.sleep(Long.parseLong(args[0]) * 1000);
    }
}
