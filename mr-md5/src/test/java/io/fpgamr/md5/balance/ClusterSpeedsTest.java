package io.fpgamr.md5.balance;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.fpgamr.accel.SpeedProfile;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The job's plan over the cluster's nodes: an emulated ARM node gets the share its measured (emulated) speed earns, labelled so. */
class ClusterSpeedsTest {
    private static SpeedProfile profile(Map<String, String> node, double search) {
        return new SpeedProfile(node, List.of(new SpeedProfile.Speed("cpu", "search", search, SpeedProfile.Source.MEASURED, "cpu:x", false)));
    }

    @Test
    void anEmulatedArmNodeIsGivenItsMeasuredSpeedLabelledEmulated() {
        ClusterSpeeds.Node x86 = new ClusterSpeeds.Node("127.0.10.1", 2, 0, profile(Map.of("arch", "amd64"), 1.2e8));
        ClusterSpeeds.Node arm = new ClusterSpeeds.Node("127.0.10.2", 2, 0, profile(Map.of("arch", "arm", "emulated", "true"), 6e6));
        assertEquals("x86", x86.type());
        assertEquals("arm", arm.type());
        WorkPlan plan = ClusterSpeeds.plan(List.of(x86, arm), "search", 1L << 24, 4);
        assertEquals(new WorkPlan.Given(1.2e8, "measured"), plan.given("127.0.10.1", "cpu"));
        assertEquals(new WorkPlan.Given(6e6, "measured-emulated"), plan.given("127.0.10.2", "cpu"));
        // the cluster's speed, which claims are sized against: every slot's given speed, the emulated ones at theirs
        assertEquals(2 * 1.2e8 + 2 * 6e6, plan.total(), 1);
    }
}
