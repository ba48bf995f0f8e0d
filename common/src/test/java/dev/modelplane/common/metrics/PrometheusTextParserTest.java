package dev.modelplane.common.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;
import org.junit.jupiter.api.Test;

class PrometheusTextParserTest {
  @Test
  void parserHandlesEscapesTimestampsAndSpecialValues() {
    var families = PrometheusTextParser.parse("""
        a{x="q\\"uote",y="back\\\\slash"} 1 1700000000000
        a{x="2"} +Inf
        b NaN
        broken{x="1" 5
        """, Set.of("a", "b", "broken"));
    assertThat(families.get("a")).hasSize(2);
    assertThat(families.get("a").get(0).labels()).containsEntry("x", "q\"uote").containsEntry("y", "back\\slash");
    assertThat(families.get("a").get(0).timestampMs()).isEqualTo(1700000000000L);
    assertThat(families.get("a").get(1).value()).isInfinite();
    assertThat(families.get("b").get(0).value()).isNaN();
    assertThat(families).doesNotContainKey("broken");
  }

  @Test
  void quotedLabelValuesMayHoldBracesCommasAndSpaces() {
    var families = PrometheusTextParser.parse("m{a=\"x} 5, y\",b=\"{z}\"} 2.5\nm_total 9\nother{a=\"1\"} 3\n",
        Set.of("m"));
    assertThat(families).containsOnlyKeys("m");
    assertThat(families.get("m")).singleElement().satisfies(s -> {
      assertThat(s.labels()).containsEntry("a", "x} 5, y").containsEntry("b", "{z}");
      assertThat(s.value()).isEqualTo(2.5);
      assertThat(s.timestampMs()).isZero();
    });
  }
}
