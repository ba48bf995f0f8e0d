package dev.modelplane.cli.user;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.FontMetrics;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.geom.AffineTransform;
import java.awt.geom.Ellipse2D;
import java.awt.geom.Line2D;
import java.awt.geom.Path2D;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import javax.imageio.ImageIO;

/** A {@link Chart} drawn into a PNG image of {@link Chart#WIDTH} by {@link Chart#HEIGHT}, laid out as the SVG. */
public final class PngChart {
  private PngChart() {
  }

  /** The PNG file's bytes. Runs headless: no display is needed. */
  public static byte[] render(Chart chart) throws IOException {
    System.setProperty("java.awt.headless", "true");
    BufferedImage image = new BufferedImage(Chart.WIDTH, Chart.HEIGHT, BufferedImage.TYPE_INT_RGB);
    Graphics2D g = image.createGraphics();
    try {
      g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
      g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
      g.setColor(Color.WHITE);
      g.fillRect(0, 0, Chart.WIDTH, Chart.HEIGHT);
      draw(g, chart);
    } finally {
      g.dispose();
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ImageIO.write(image, "png", out);
    return out.toByteArray();
  }

  private static void draw(Graphics2D g, Chart chart) {
    double left = Chart.LEFT;
    double right = Chart.LEFT + chart.plotWidth();
    double top = Chart.TOP;
    double bottom = Chart.TOP + chart.plotHeight();
    Font plain = new Font(Font.SANS_SERIF, Font.PLAIN, 12);
    g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 16));
    g.setColor(new Color(0x333333));
    text(g, chart.title(), Chart.WIDTH / 2.0, 28, 0.5);
    g.setStroke(new BasicStroke(1));
    g.setColor(new Color(0xe0e0e0));
    for (Chart.Tick t : chart.yTicks()) {
      g.draw(new Line2D.Double(left, t.at(), right, t.at()));
    }
    g.setColor(new Color(0x333333));
    g.draw(new Line2D.Double(left, top, left, bottom));
    g.draw(new Line2D.Double(left, bottom, right, bottom));
    g.setFont(plain);
    for (Chart.Tick t : chart.yTicks()) {
      g.draw(new Line2D.Double(left - 5, t.at(), left, t.at()));
      text(g, t.label(), left - 8, t.at() + 4, 1);
    }
    for (Chart.Tick t : chart.xTicks()) {
      g.draw(new Line2D.Double(t.at(), bottom, t.at(), bottom + 5));
      text(g, t.label(), t.at(), bottom + 20, 0.5);
    }
    g.setFont(plain.deriveFont(13f));
    text(g, chart.xLabel(), (left + right) / 2, Chart.HEIGHT - 16, 0.5);
    AffineTransform saved = g.getTransform();
    g.translate(22, (top + bottom) / 2);
    g.rotate(-Math.PI / 2);
    text(g, chart.yLabel(), 0, 0, 0.5);
    g.setTransform(saved);
    g.setFont(plain);
    for (int i = 0; i < chart.series().size(); i++) {
      Chart.Series s = chart.series().get(i);
      g.setColor(Color.decode(Chart.color(i)));
      g.setStroke(new BasicStroke(2, BasicStroke.CAP_ROUND, BasicStroke.JOIN_ROUND));
      Path2D.Double path = new Path2D.Double();
      for (Chart.Point p : s.points()) {
        if (path.getCurrentPoint() == null) {
          path.moveTo(chart.x(p.x()), chart.y(p.y()));
        } else {
          path.lineTo(chart.x(p.x()), chart.y(p.y()));
        }
        g.fill(new Ellipse2D.Double(chart.x(p.x()) - 3.5, chart.y(p.y()) - 3.5, 7, 7));
      }
      g.draw(path);
      double rowY = top + 10 + i * 20;
      g.draw(new Line2D.Double(right + 20, rowY, right + 42, rowY));
      g.setColor(new Color(0x333333));
      text(g, Chart.legend(s.name()), right + 48, rowY + 4, 0);
    }
  }

  /** Draws {@code s} with its baseline at {@code y}; {@code align} 0 starts, 0.5 centres, 1 ends it at {@code x}. */
  private static void text(Graphics2D g, String s, double x, double y, double align) {
    FontMetrics metrics = g.getFontMetrics();
    g.drawString(s, (float) (x - metrics.stringWidth(s) * align), (float) y);
  }
}
