package io.fpgamr.energy;

import java.util.List;

/**
 * Mean and sample standard deviation (n - 1 in the denominator, as R's sd() that the thesis's
 * stat.R used) of repeated measurements, shown as "mean ± sd".
 */
public record Stats(double mean, double sd, int n) {
    public static Stats of(List<Double> values) {
        int n = values.size();
        if (n == 0) {
            return new Stats(Double.NaN, Double.NaN, 0);
        }
        double sum = 0;
        for (double v : values) {
            sum += v;
        }
        double mean = sum / n;
        if (n == 1) {
            return new Stats(mean, Double.NaN, 1);
        }
        double sq = 0;
        for (double v : values) {
            sq += (v - mean) * (v - mean);
        }
        return new Stats(mean, Math.sqrt(sq / (n - 1)), n);
    }

    /** "mean ± sd" with the given decimals; the sd is "n/a" for a single run. */
    public String format(int decimals) {
        String f = "%." + decimals + "f";
        return String.format(java.util.Locale.ROOT, f, mean) + " ± "
            + (Double.isNaN(sd) ? "n/a" : String.format(java.util.Locale.ROOT, f, sd));
    }
}
