package dev.modelplane.cli.user;

import static org.assertj.core.api.Assertions.assertThat;

import dev.modelplane.api.ome.v1beta1.BenchmarkResult;
import dev.modelplane.api.ome.v1beta1.LatencyPercentiles;
import dev.modelplane.operator.ome.benchmark.BenchmarkSummary;
import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.imageio.ImageIO;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/** The report's plots: which charts, and that the SVG is well-formed XML and the PNG a decodable image. */
class BenchPlotsTest {
  static Path fixture() throws Exception {
    return Path.of(BenchPlotsTest.class.getResource("/benchmark/genai-bench-0.0.5").toURI());
  }

  /** The real run plus a second scenario with a name that needs escaping in XML and in a file name. */
  private static List<BenchmarkResult> rows() throws Exception {
    List<BenchmarkResult> rows = new ArrayList<>(BenchmarkSummary.read(fixture()));
    for (int c : new int[] {16, 32, 64, 128}) {
      rows.add(new BenchmarkResult("D(100,100)<&>", c, null, 100, 0.0, 10.0, c / 2.0, c * 20.0, c * 100.0,
          new LatencyPercentiles(0.05, 0.04, 0.08, 0.12), new LatencyPercentiles(1.0, 0.9, 1.5, 2.0)));
    }
    return rows;
  }

  @Test
  void throughputPerScenarioAndLatencyPercentilesPerScenario() throws Exception {
    Map<String, Chart> charts = BenchPlots.charts(rows());
    assertThat(charts.keySet()).containsExactly("throughput-output-tokens", "throughput-requests", "ttft-dataset",
        "e2e-dataset", "ttft-D_100_100", "e2e-D_100_100");
    Chart tokens = charts.get("throughput-output-tokens");
    assertThat(tokens.series()).extracting(Chart.Series::name).containsExactly("dataset", "D(100,100)<&>");
    assertThat(tokens.series().get(0).points()).extracting(Chart.Point::x).containsExactly(16.0, 32.0, 64.0, 128.0);
    assertThat(tokens.series().get(0).points().get(0).y()).isEqualTo(951.1644192182309);
    Chart ttft = charts.get("ttft-dataset");
    assertThat(ttft.yLabel()).isEqualTo("TTFT (ms)");
    assertThat(ttft.series()).extracting(Chart.Series::name).containsExactly("p50", "p90", "p99");
    assertThat(ttft.series().get(2).points().get(3).y()).isEqualTo(3256.8436535079677);
    // Concurrency 16..128 spans a factor of 8: the x axis is logarithmic, so the ticks are evenly spaced.
    List<Chart.Tick> ticks = ttft.xTicks();
    assertThat(ticks).extracting(Chart.Tick::label).containsExactly("16", "32", "64", "128");
    assertThat(ticks.get(1).at() - ticks.get(0).at()).isCloseTo(ticks.get(3).at() - ticks.get(2).at(),
        org.assertj.core.api.Assertions.within(1e-9));
    assertThat(ttft.yTicks()).extracting(Chart.Tick::label).containsExactly("0", "1000", "2000", "3000", "4000");
  }

  @Test
  void svgIsWellFormedWithAxesSeriesAndLegend(@TempDir Path dir) throws Exception {
    List<Path> files = BenchPlots.write(rows(), dir);
    assertThat(files).hasSize(12);
    Document svg = parse(dir.resolve("throughput-output-tokens.svg"));
    Element root = svg.getDocumentElement();
    assertThat(root.getTagName()).isEqualTo("svg");
    assertThat(root.getAttribute("width")).isEqualTo("760");
    NodeList series = svg.getElementsByTagName("g");
    List<String> names = new ArrayList<>();
    for (int i = 0; i < series.getLength(); i++) {
      Element g = (Element) series.item(i);
      if ("series".equals(g.getAttribute("class"))) {
        names.add(g.getAttribute("data-name"));
        assertThat(g.getElementsByTagName("polyline").getLength()).isEqualTo(1);
        assertThat(g.getElementsByTagName("circle").getLength()).isEqualTo(4);
      }
    }
    assertThat(names).containsExactly("dataset", "D(100,100)<&>");
    String text = root.getTextContent();
    assertThat(text).contains("Output throughput vs concurrency", "output tokens/s", "concurrency", "128",
        "D(100,100)<&>");
    Document e2e = parse(dir.resolve("e2e-dataset.svg"));
    assertThat(e2e.getDocumentElement().getTextContent()).contains("End-to-end latency: dataset",
        "E2E latency (s)", "p50", "p90", "p99");
  }

  @Test
  void pngIsADecodableImageOfTheChartSizeWithTheSeriesColours(@TempDir Path dir) throws Exception {
    BenchPlots.write(rows(), dir);
    BufferedImage image = ImageIO.read(dir.resolve("throughput-requests.png").toFile());
    assertThat(image).isNotNull();
    assertThat(image.getWidth()).isEqualTo(760);
    assertThat(image.getHeight()).isEqualTo(460);
    int first = 0;
    int second = 0;
    for (int x = 0; x < image.getWidth(); x++) {
      for (int y = 0; y < image.getHeight(); y++) {
        int rgb = image.getRGB(x, y) & 0xffffff;
        first += rgb == 0x0072B2 ? 1 : 0;
        second += rgb == 0xE69F00 ? 1 : 0;
      }
    }
    assertThat(first).as("pixels of the first series").isGreaterThan(100);
    assertThat(second).as("pixels of the second series").isGreaterThan(100);
    assertThat(Files.size(dir.resolve("ttft-D_100_100.png"))).isGreaterThan(1000);
  }

  private static Document parse(Path file) throws Exception {
    DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
    f.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
    f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
    f.setNamespaceAware(true);
    return f.newDocumentBuilder().parse(file.toFile());
  }
}
