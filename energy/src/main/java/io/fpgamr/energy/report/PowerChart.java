package io.fpgamr.energy.report;

import io.fpgamr.energy.JobEnergy;
import io.fpgamr.energy.NodeEnergy;
import io.fpgamr.energy.PerSecond;
import java.awt.BasicStroke;
import java.awt.Color;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.VectorGraphicsEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * The thesis's consumption graph for one job: each node's power per second on the left axis, time
 * from submission along the bottom, and the number of running maps, shuffles and reduces per
 * second on the right axis. Drawn with XChart; PNG through its BitmapEncoder, SVG through its
 * VectorGraphicsEncoder. A node with no power source has no power line, and the title says so.
 */
public final class PowerChart {
    private static final Color[] NODE_COLORS = {
        new Color(0xC0392B), new Color(0x2C3E50), new Color(0x8E44AD), new Color(0xD35400), new Color(0x16A085), new Color(0x7F8C8D)};
    private static final Color MAPS = new Color(0x2E86C1);
    private static final Color SHUFFLES = new Color(0xF1C40F);
    private static final Color REDUCES = new Color(0x27AE60);

    private PowerChart() {
    }

    public static XYChart build(JobEnergy e, String title) {
        PerSecond t = e.perSecond();
        boolean anyPower = !t.nodeWatts().isEmpty();
        String heading = title + (anyPower ? "" : " (no power source: task counts only)")
            + (e.job().simulated() ? " (maps on a simulated FPGA: modelled)" : "");
        XYChart chart = new XYChartBuilder().width(1100).height(520).title(heading)
            .xAxisTitle("time since submission [s]").yAxisTitle(anyPower ? powerAxisTitle(e) : "running tasks").build();
        Styler st = chart.getStyler();
        st.setLegendPosition(Styler.LegendPosition.OutsideS);
        st.setLegendLayout(Styler.LegendLayout.Horizontal);
        st.setChartBackgroundColor(Color.WHITE);
        chart.getStyler().setPlotGridLinesColor(new Color(0xDDDDDD));
        chart.getStyler().setXAxisDecimalPattern("0");
        // With power, task counts go on a second axis at the right; without, they are the only axis.
        int countAxis = anyPower ? 1 : 0;
        chart.getStyler().setYAxisGroupPosition(1, Styler.YAxisPosition.Right);
        if (anyPower) {
            chart.setYAxisGroupTitle(0, powerAxisTitle(e));
        }
        chart.setYAxisGroupTitle(countAxis, "running tasks");
        // Task counts are whole numbers: wide tick spacing and an even maximum of at least 4 keep
        // their axis on integers.
        chart.getStyler().setYAxisTickMarkSpacingHint(110);
        int most = Math.max(4, Math.max(max(t.maps()), Math.max(max(t.shuffles()), max(t.reduces()))));
        chart.getStyler().setYAxisMin(0, 0.0);
        chart.getStyler().setYAxisMin(countAxis, 0.0);
        chart.getStyler().setYAxisMax(countAxis, (double) (most + most % 2));

        int n = Math.max(1, t.seconds());
        double[] x = new double[n];
        for (int k = 0; k < n; k++) {
            x[k] = k;
        }
        int c = 0;
        for (Map.Entry<String, double[]> node : t.nodeWatts().entrySet()) {
            double[] y = t.seconds() == 0 ? new double[] {Double.NaN} : node.getValue();
            XYSeries s = chart.addSeries(label(e, node.getKey()), x, y);
            s.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Line);
            s.setMarker(SeriesMarkers.NONE);
            s.setLineColor(NODE_COLORS[c++ % NODE_COLORS.length]);
            s.setLineWidth(1.6f);
            s.setYAxisGroup(0);
        }
        counts(chart, "maps", x, t.maps(), MAPS, n, countAxis);
        counts(chart, "shuffles", x, t.shuffles(), SHUFFLES, n, countAxis);
        counts(chart, "reduces", x, t.reduces(), REDUCES, n, countAxis);
        return chart;
    }

    private static int max(int[] a) {
        int m = 0;
        for (int v : a) {
            m = Math.max(m, v);
        }
        return m;
    }

    private static String powerAxisTitle(JobEnergy e) {
        boolean declared = e.nodes().stream().anyMatch(nd -> nd.hasSource() && !nd.measured());
        return declared ? "power [W] (declared where marked)" : "power [W]";
    }

    private static String label(JobEnergy e, String node) {
        for (NodeEnergy n : e.nodes()) {
            if (n.node().equals(node)) {
                return node + (n.measured() ? " " + n.source() : " declared, not measured") + " [W]";
            }
        }
        return node + " [W]";
    }

    private static void counts(XYChart chart, String name, double[] x, int[] counts, Color color, int n, int axis) {
        double[] y = new double[n];
        for (int k = 0; k < counts.length && k < n; k++) {
            y[k] = counts[k];
        }
        XYSeries s = chart.addSeries(name, x, y);
        s.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Step);
        s.setMarker(SeriesMarkers.NONE);
        s.setLineColor(color);
        s.setLineWidth(1.2f);
        s.setLineStyle(new BasicStroke(1.2f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[] {5f, 3f}, 0f));
        s.setYAxisGroup(axis);
    }

    public static void writePng(XYChart chart, Path file) throws IOException {
        try (OutputStream out = Files.newOutputStream(file)) {
            BitmapEncoder.saveBitmap(chart, out, BitmapEncoder.BitmapFormat.PNG);
        }
    }

    public static void writeSvg(XYChart chart, Path file) throws IOException {
        try (OutputStream out = Files.newOutputStream(file)) {
            VectorGraphicsEncoder.saveVectorGraphic(chart, out, VectorGraphicsEncoder.VectorGraphicsFormat.SVG);
        }
    }
}
