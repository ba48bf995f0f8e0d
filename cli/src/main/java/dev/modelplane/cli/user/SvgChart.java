package dev.modelplane.cli.user;

import java.util.Locale;

/** A {@link Chart} as a standalone SVG document: frame, grid, ticks, axis labels, one polyline per series, legend. */
public final class SvgChart {
  private final Chart chart;
  private final StringBuilder svg = new StringBuilder();

  private SvgChart(Chart chart) {
    this.chart = chart;
  }

  /** The SVG document. */
  public static String render(Chart chart) {
    return new SvgChart(chart).draw();
  }

  private String draw() {
    svg.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
        .append("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"").append(Chart.WIDTH).append("\" height=\"")
        .append(Chart.HEIGHT).append("\" viewBox=\"0 0 ").append(Chart.WIDTH).append(' ').append(Chart.HEIGHT)
        .append("\" font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\" font-size=\"12\">\n")
        .append("<title>").append(escape(chart.title())).append("</title>\n")
        .append("<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n");
    text(Chart.WIDTH / 2.0, 28, "middle", "font-size=\"16\" font-weight=\"bold\"", chart.title());
    double left = Chart.LEFT;
    double right = Chart.LEFT + chart.plotWidth();
    double top = Chart.TOP;
    double bottom = Chart.TOP + chart.plotHeight();
    svg.append("<g id=\"grid\" stroke=\"#e0e0e0\" stroke-width=\"1\">\n");
    for (Chart.Tick t : chart.yTicks()) {
      line(left, t.at(), right, t.at());
    }
    svg.append("</g>\n<g id=\"axes\" stroke=\"#333333\" stroke-width=\"1\">\n");
    line(left, top, left, bottom);
    line(left, bottom, right, bottom);
    for (Chart.Tick t : chart.yTicks()) {
      line(left - 5, t.at(), left, t.at());
    }
    for (Chart.Tick t : chart.xTicks()) {
      line(t.at(), bottom, t.at(), bottom + 5);
    }
    svg.append("</g>\n<g id=\"tick-labels\" fill=\"#333333\">\n");
    for (Chart.Tick t : chart.yTicks()) {
      text(left - 8, t.at() + 4, "end", "", t.label());
    }
    for (Chart.Tick t : chart.xTicks()) {
      text(t.at(), bottom + 20, "middle", "", t.label());
    }
    svg.append("</g>\n");
    text((left + right) / 2, Chart.HEIGHT - 16, "middle", "font-size=\"13\"", chart.xLabel());
    svg.append("<text x=\"0\" y=\"0\" text-anchor=\"middle\" font-size=\"13\" transform=\"translate(")
        .append(n(22)).append(' ').append(n((top + bottom) / 2)).append(") rotate(-90)\">")
        .append(escape(chart.yLabel())).append("</text>\n");
    for (int i = 0; i < chart.series().size(); i++) {
      series(i, chart.series().get(i));
    }
    legend(right + 20, top + 10);
    return svg.append("</svg>\n").toString();
  }

  private void series(int index, Chart.Series s) {
    String color = Chart.color(index);
    svg.append("<g class=\"series\" data-name=\"").append(escape(s.name())).append("\">\n");
    if (s.points().size() > 1) {
      svg.append("<polyline fill=\"none\" stroke=\"").append(color).append("\" stroke-width=\"2\" points=\"");
      for (Chart.Point p : s.points()) {
        svg.append(n(chart.x(p.x()))).append(',').append(n(chart.y(p.y()))).append(' ');
      }
      svg.setLength(svg.length() - 1);
      svg.append("\"/>\n");
    }
    for (Chart.Point p : s.points()) {
      svg.append("<circle cx=\"").append(n(chart.x(p.x()))).append("\" cy=\"").append(n(chart.y(p.y())))
          .append("\" r=\"3.5\" fill=\"").append(color).append("\"><title>").append(escape(s.name())).append(": ")
          .append(Chart.format(p.x())).append(" → ").append(Chart.format(p.y())).append("</title></circle>\n");
    }
    svg.append("</g>\n");
  }

  private void legend(double x, double y) {
    svg.append("<g id=\"legend\">\n");
    for (int i = 0; i < chart.series().size(); i++) {
      double rowY = y + i * 20;
      svg.append("<line x1=\"").append(n(x)).append("\" y1=\"").append(n(rowY)).append("\" x2=\"").append(n(x + 22))
          .append("\" y2=\"").append(n(rowY)).append("\" stroke=\"").append(Chart.color(i))
          .append("\" stroke-width=\"2\"/>\n");
      text(x + 28, rowY + 4, "start", "", Chart.legend(chart.series().get(i).name()));
    }
    svg.append("</g>\n");
  }

  private void line(double x1, double y1, double x2, double y2) {
    svg.append("<line x1=\"").append(n(x1)).append("\" y1=\"").append(n(y1)).append("\" x2=\"").append(n(x2))
        .append("\" y2=\"").append(n(y2)).append("\"/>\n");
  }

  private void text(double x, double y, String anchor, String attributes, String content) {
    svg.append("<text x=\"").append(n(x)).append("\" y=\"").append(n(y)).append("\" text-anchor=\"").append(anchor)
        .append('"').append(attributes.isEmpty() ? "" : " " + attributes).append('>').append(escape(content))
        .append("</text>\n");
  }

  private static String n(double v) {
    return String.format(Locale.ROOT, "%.1f", v);
  }

  /** Text as XML character data or attribute value; characters XML 1.0 forbids are dropped. */
  static String escape(String s) {
    StringBuilder b = new StringBuilder(s.length());
    s.codePoints().forEach(c -> {
      switch (c) {
        case '<' -> b.append("&lt;");
        case '>' -> b.append("&gt;");
        case '&' -> b.append("&amp;");
        case '"' -> b.append("&quot;");
        case '\'' -> b.append("&apos;");
        default -> {
          if (c == 0x9 || c == 0xA || c == 0xD || c >= 0x20 && c <= 0xD7FF || c >= 0xE000 && c <= 0xFFFD
              || c >= 0x10000 && c <= 0x10FFFF) {
            b.appendCodePoint(c);
          }
        }
      }
    });
    return b.toString();
  }
}
