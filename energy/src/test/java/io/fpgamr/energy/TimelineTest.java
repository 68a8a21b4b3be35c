package io.fpgamr.energy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.StringReader;
import java.io.StringWriter;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The job's timeline: the one stage table, the maps per node and the simulated flag, from the tasks' spans. */
class TimelineTest {
    private static TaskSpan map(String task, String node, String hardware, boolean simulated, long start, long end) {
        return new TaskSpan(task, TaskSpan.MAP, node, hardware, simulated, start, start + 50, end);
    }

    @Test
    void theStageTableOfABenchJob() {
        Timeline t = new Timeline(1_000, 9_000, List.of(
            map("m0", "a:1", "cpu", false, 1_200, 4_000),
            map("m1", "b:2", "fpga", true, 1_500, 4_500),
            new TaskSpan("r0", TaskSpan.REDUCE, "a:1", "cpu", false, 3_000, 6_000, 8_000),
            new TaskSpan("r1", TaskSpan.REDUCE, "b:2", "cpu", false, 3_100, 6_500, 8_700)));
        assertEquals(List.of(new Timeline.Stage("map", 1_200, 4_500), new Timeline.Stage("shuffle", 4_500, 6_500),
            new Timeline.Stage("reduce", 6_500, 8_700), new Timeline.Stage("total", 1_000, 9_000)), t.stages());
        assertEquals(3.3, t.seconds("map"), 1e-12);
        assertEquals(2.0, t.seconds("shuffle"), 1e-12);
        assertEquals(2.2, t.seconds("reduce"), 1e-12);
        assertEquals(8.0, t.seconds("total"), 1e-12);
        assertEquals(Map.of("a:1", new Timeline.NodeMaps(1, 0, false), "b:2", new Timeline.NodeMaps(0, 1, true)), t.mapsByNode());
        assertTrue(t.simulated());
    }

    @Test
    void aSearchJobHasNoShuffleOrReduceStage() {
        Timeline t = new Timeline(0, 5_000, List.of(map("m0", "a", "fpga", false, 100, 4_000), map("m1", "a", "cpu", false, 200, 3_000)));
        assertEquals(List.of("map", "total"), t.stages().stream().map(Timeline.Stage::name).toList());
        assertEquals(0.0, t.seconds("shuffle"));
        assertEquals(0.0, t.seconds("reduce"));
        assertEquals(Map.of("a", new Timeline.NodeMaps(1, 1, false)), t.mapsByNode());
        assertFalse(t.simulated(), "a real FPGA is not simulated");
    }

    @Test
    void spansReadBackFromTheirCsvForm() throws IOException {
        List<TaskSpan> spans = List.of(new TaskSpan("task_1_0001_m_000003", TaskSpan.MAP, "host,with,commas:8042", "fpga", true, 10, 20, 30,
                1L << 18),
            new TaskSpan("task_1_0001_r_000000", TaskSpan.REDUCE, "n", "cpu", false, 5, 7, 9));
        StringWriter w = new StringWriter();
        TaskSpan.CSV.write(w, spans);
        assertTrue(w.toString().startsWith("task,kind,node,hardware,simulated,start_ms,ready_ms,end_ms,values\n"), w.toString());
        assertEquals(spans, TaskSpan.CSV.read(new StringReader(w.toString()), "spans"));
        assertEquals(List.of(new TaskSpan.Phase("shuffle", "n", 5, 7), new TaskSpan.Phase("reduce", "n", 7, 9)), spans.get(1).phases());
        String header = "task,kind,node,hardware,simulated,start_ms,ready_ms,end_ms,values\n";
        IOException bad = assertThrows(IOException.class, () -> TaskSpan.CSV.read(new StringReader(header + "r,sort,n,cpu,false,1,2,3,0\n"), "f"));
        assertTrue(bad.getMessage().startsWith("f:2: "), bad.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new Timeline(5, 4, List.of()));
    }
}
