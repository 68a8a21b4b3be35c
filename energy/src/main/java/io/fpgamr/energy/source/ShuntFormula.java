package io.fpgamr.energy.source;

/**
 * The thesis's shunt measurement (its section 6.3.2): a resistor of R ohms in the board's supply
 * return, the supply held at Us volts, the oscilloscope reading the drop dU across the resistor.
 * The current is dU / R and the board sees Us - dU, so P = (Us - dU) * dU / R.
 */
public record ShuntFormula(double supplyVolts, double shuntOhms) {
    public ShuntFormula {
        if (!(supplyVolts > 0) || !Double.isFinite(supplyVolts)) {
            throw new IllegalArgumentException("--supply-volts must be a positive number of volts, got " + supplyVolts);
        }
        if (!(shuntOhms > 0) || !Double.isFinite(shuntOhms)) {
            throw new IllegalArgumentException("--shunt-ohms must be a positive number of ohms, got " + shuntOhms);
        }
    }

    public double watts(double dropVolts) {
        return (supplyVolts - dropVolts) * dropVolts / shuntOhms;
    }
}
