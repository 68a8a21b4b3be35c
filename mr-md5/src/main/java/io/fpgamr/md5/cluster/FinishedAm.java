package io.fpgamr.md5.cluster;

import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.mapreduce.JobID;
import org.apache.hadoop.mapreduce.TypeConverter;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.Container;
import org.apache.hadoop.yarn.api.records.ContainerExitStatus;
import org.apache.hadoop.yarn.server.nodemanager.NodeManager;
import org.apache.hadoop.yarn.server.nodemanager.containermanager.container.ContainerKillEvent;
import org.apache.hadoop.yarn.server.resourcemanager.RMContext;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMApp;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMAppState;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.attempt.RMAppAttempt;

/**
 * Ends a finished job's MapReduce ApplicationMaster on the embedded cluster once the launcher has
 * read the job, instead of after Hadoop's fixed wait (issue 40). Hadoop's {@code MRAppMaster}, its
 * job done, stops its services (the job history handler first, so the history file is written, then
 * the unregistration from the ResourceManager with the job's final status), then sleeps 5 s so that
 * clients still reach it for the job's final state, then exits. Its container keeps its memory
 * until then: on a one-node cluster the queue's share for AMs holds one AM, so the next job's AM
 * waited for it (2.6 s per run on the mean over {@code quick.yml}'s 24 runs). The launcher asks the
 * AM for nothing more once it has the counters and the completion events and has read the job
 * history; then the node's NodeManager kills the container as it kills the containers of a
 * finished application ({@link ContainerExitStatus#KILLED_AFTER_APP_COMPLETION}), and the
 * application ends FINISHED with the final status its AM gave. Only an application the
 * ResourceManager has as unregistered (FINISHING) is touched: an AM still writing its history or
 * its final status is left to finish.
 */
final class FinishedAm {
    /** How long the AM may take to unregister after the launcher is done: no longer than its own wait after that. */
    private static final long UNREGISTER_WAIT_MS = 5000;
    private static final long POLL_MS = 20;

    private FinishedAm() {
    }

    /**
     * Has the NodeManager running job {@code jobId}'s AM kill its container once the ResourceManager
     * has the application unregistered; false where there is nothing to end (the application
     * unknown, already ended, not unregistered within the AM's own wait, or its container on no
     * node of {@code nodes}).
     */
    static boolean release(RMContext rm, List<NodeManager> nodes, String jobId) throws InterruptedException {
        ApplicationId app = TypeConverter.toYarn(JobID.forName(jobId)).getAppId();
        RMApp rmApp = rm.getRMApps().get(app);
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(UNREGISTER_WAIT_MS);
        while (rmApp != null && rmApp.getState() != RMAppState.FINISHING) {
            if (rmApp.isAppInCompletedStates() || System.nanoTime() > deadline) {
                return false;
            }
            Thread.sleep(POLL_MS);
        }
        RMAppAttempt attempt = rmApp == null ? null : rmApp.getCurrentAppAttempt();
        Container am = attempt == null ? null : attempt.getMasterContainer();
        if (am == null) {
            return false;
        }
        for (NodeManager nm : nodes) {
            // the event the NodeManager's container dispatcher would hand the container (its own dispatcher has no such handler)
            org.apache.hadoop.yarn.server.nodemanager.containermanager.container.Container c =
                am.getNodeId().equals(nm.getNMContext().getNodeId()) ? nm.getNMContext().getContainers().get(am.getId()) : null;
            if (c != null) {
                c.handle(new ContainerKillEvent(am.getId(), ContainerExitStatus.KILLED_AFTER_APP_COMPLETION,
                    "the job is done and its launcher has read it: no need for the AM's 5 s wait"));
                return true;
            }
        }
        return false;
    }
}
