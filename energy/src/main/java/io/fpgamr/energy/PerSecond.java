package io.fpgamr.energy;

import java.util.Map;

/**
 * The job second by second, as the thesis's graphs: from the job's submission, each node's mean
 * power in that second (NaN where it was not measured) and how many maps, shuffles and reduces ran
 * during it.
 */
public record PerSecond(long originMs, int seconds, Map<String, double[]> nodeWatts, int[] maps, int[] shuffles, int[] reduces) {
}
