package io.fpgamr.yarn;

import io.fpgamr.accel.design.FpgaContainer;
import java.io.Closeable;
import java.io.IOException;
import java.util.EnumSet;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.ipc.RPC;
import org.apache.hadoop.yarn.api.ApplicationClientProtocol;
import org.apache.hadoop.yarn.api.protocolrecords.GetClusterNodesRequest;
import org.apache.hadoop.yarn.api.records.NodeId;
import org.apache.hadoop.yarn.api.records.NodeReport;
import org.apache.hadoop.yarn.api.records.NodeState;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.api.records.ResourceOption;
import org.apache.hadoop.yarn.client.ClientRMProxy;
import org.apache.hadoop.yarn.exceptions.YarnException;
import org.apache.hadoop.yarn.server.api.ResourceManagerAdministrationProtocol;
import org.apache.hadoop.yarn.server.api.protocolrecords.UpdateNodeResourceRequest;
import org.apache.hadoop.yarn.util.resource.Resources;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sets how many FPGAs the ResourceManager counts for this node, through its admin protocol's
 * {@code updateNodeResource} (the call behind {@code yarn rmadmin -updateNodeResource}): a node
 * reports its resources only when it registers, so a device that goes bad or comes back is
 * announced this way. Running containers are left alone. The NodeManager's user must be a YARN
 * admin ({@code yarn.admin.acl}, everybody by default).
 */
final class RmNodeResource implements Closeable {
    private static final Logger LOG = LoggerFactory.getLogger(RmNodeResource.class);

    private final Configuration conf;
    private ApplicationClientProtocol client;
    private ResourceManagerAdministrationProtocol admin;

    RmNodeResource(Configuration conf) {
        this.conf = conf;
    }

    /**
     * Makes the ResourceManager count {@code fpgas} devices on the node, keeping its other
     * resources as they are; returns the count it had before, or -1 when it does not know the
     * node (yet).
     */
    synchronized long setFpgas(NodeId node, long fpgas) throws IOException, YarnException {
        if (client == null) {
            client = ClientRMProxy.createRMProxy(conf, ApplicationClientProtocol.class);
        }
        Resource total = null;
        for (NodeReport r : client.getClusterNodes(GetClusterNodesRequest.newInstance(EnumSet.allOf(NodeState.class))).getNodeReports()) {
            if (r.getNodeId().equals(node)) {
                total = r.getCapability();
            }
        }
        if (total == null) {
            return -1;
        }
        long now = total.getResourceValue(FpgaContainer.RESOURCE);
        if (now == fpgas) {
            return now;
        }
        Resource next = Resources.clone(total);
        next.setResourceValue(FpgaContainer.RESOURCE, fpgas);
        if (admin == null) {
            admin = ClientRMProxy.createRMProxy(conf, ResourceManagerAdministrationProtocol.class);
        }
        admin.updateNodeResource(UpdateNodeResourceRequest.newInstance(
            Map.of(node, ResourceOption.newInstance(next, ResourceOption.OVER_COMMIT_TIMEOUT_MILLIS_DEFAULT))));
        LOG.info("{} offers {} {} to the ResourceManager (was {})", node, fpgas, FpgaContainer.RESOURCE, now);
        return now;
    }

    @Override
    public synchronized void close() {
        if (client != null) {
            RPC.stopProxy(client);
            client = null;
        }
        if (admin != null) {
            RPC.stopProxy(admin);
            admin = null;
        }
    }
}
