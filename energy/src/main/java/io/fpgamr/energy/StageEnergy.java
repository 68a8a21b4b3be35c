package io.fpgamr.energy;

/**
 * One row of the stage table: the thesis's map, shuffle and reduce stages (from the first map's
 * start to the last map's end, then to the last reduce input being ready, then to the last reduce's
 * end) and the whole job, with the energy all nodes used in it when every node was measured
 * throughout.
 */
public record StageEnergy(String stage, long startMs, long endMs, Double energyJ) {
    public double seconds() {
        return (endMs - startMs) / 1000.0;
    }

    public Double meanW() {
        return energyJ == null || endMs == startMs ? null : energyJ / seconds();
    }
}
