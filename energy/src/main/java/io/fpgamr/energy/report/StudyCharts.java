package io.fpgamr.energy.report;

import java.awt.Color;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.CategorySeries;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.internal.chartpart.Chart;
import org.knowm.xchart.style.AxesChartStyler;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * The study's charts over many jobs (the experiment report's, mr-md5's {@code experiment}): bars
 * per category (TpW per node type; stage times per reducer count, stacked), and lines over a
 * number (scaling with node count). Same look and encoders as {@link PowerChart}. A title says
 * where a figure is modelled or declared; the caller writes it so.
 */
public final class StudyCharts {
    private static final Color[] COLORS = {
        new Color(0x2E86C1), new Color(0xF1C40F), new Color(0x27AE60), new Color(0xC0392B), new Color(0x8E44AD), new Color(0x7F8C8D)};

    private StudyCharts() {
    }

    /** Bars of each series over the categories, side by side or ({@code stacked}) on top of each other. */
    public static CategoryChart bars(String title, String xTitle, String yTitle, List<String> categories, Map<String, List<Double>> series,
                                     boolean stacked) {
        CategoryChart chart = new CategoryChartBuilder().width(900).height(480).title(title).xAxisTitle(xTitle).yAxisTitle(yTitle).build();
        style(chart.getStyler());
        chart.getStyler().setStacked(stacked);
        chart.getStyler().setOverlapped(false);
        chart.getStyler().setLabelsVisible(false);
        int c = 0;
        for (Map.Entry<String, List<Double>> s : series.entrySet()) {
            CategorySeries cs = chart.addSeries(s.getKey(), categories, s.getValue().stream().map(v -> v == null ? 0.0 : v).toList());
            cs.setFillColor(COLORS[c++ % COLORS.length]);
        }
        return chart;
    }

    /** Lines with markers of each series over {@code x}. */
    public static XYChart lines(String title, String xTitle, String yTitle, List<Double> x, Map<String, List<Double>> series) {
        XYChart chart = new XYChartBuilder().width(900).height(480).title(title).xAxisTitle(xTitle).yAxisTitle(yTitle).build();
        style(chart.getStyler());
        chart.getStyler().setXAxisDecimalPattern("0");
        int c = 0;
        for (Map.Entry<String, List<Double>> s : series.entrySet()) {
            XYSeries xs = chart.addSeries(s.getKey(), x, s.getValue().stream().map(v -> v == null ? Double.NaN : v).toList());
            xs.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Line);
            xs.setMarker(SeriesMarkers.CIRCLE);
            xs.setLineColor(COLORS[c % COLORS.length]);
            xs.setMarkerColor(COLORS[c++ % COLORS.length]);
        }
        return chart;
    }

    private static void style(AxesChartStyler st) {
        st.setLegendPosition(Styler.LegendPosition.OutsideS);
        st.setLegendLayout(Styler.LegendLayout.Horizontal);
        st.setChartBackgroundColor(Color.WHITE);
        st.setPlotGridLinesColor(new Color(0xDDDDDD));
    }

    /** Writes {@code base.png} and {@code base.svg}. */
    public static void write(Chart<?, ?> chart, Path base) throws IOException {
        PowerChart.writePng(chart, base.resolveSibling(base.getFileName() + ".png"));
        PowerChart.writeSvg(chart, base.resolveSibling(base.getFileName() + ".svg"));
    }
}
