package dev.modelplane.operator.ome.modelagent;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.NodeAffinity;
import io.fabric8.kubernetes.api.model.NodeAffinityBuilder;
import io.fabric8.kubernetes.api.model.NodeSelectorRequirement;
import io.fabric8.kubernetes.api.model.NodeSelectorTerm;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class NodeMatcherTest {
  private static final String NODE = "gpu-1";
  private static final Map<String, String> LABELS = Map.of("gpu", "a100", "zone", "a", "gpus", "8",
      "empty", "");

  /** Each row: description, nodeSelector, affinity (null for none), expected. */
  static Stream<Arguments> table() {
    return Stream.of(
        row("no selector, no affinity: every node", null, null, true),
        row("empty selector", Map.of(), null, true),
        row("selector equal", Map.of("gpu", "a100"), null, true),
        row("selector all labels equal", Map.of("gpu", "a100", "zone", "a"), null, true),
        row("selector one label differs", Map.of("gpu", "a100", "zone", "b"), null, false),
        row("selector label missing", Map.of("rack", "1"), null, false),
        row("selector empty value matches empty label", Map.of("empty", ""), null, true),
        row("In matches", null, affinity(term(expr("gpu", "In", "h100", "a100"))), true),
        row("In no value matches", null, affinity(term(expr("gpu", "In", "h100"))), false),
        row("In missing label", null, affinity(term(expr("rack", "In", "1"))), false),
        row("In without values is invalid", null, affinity(term(expr("gpu", "In"))), false),
        row("NotIn label value excluded", null, affinity(term(expr("gpu", "NotIn", "a100"))), false),
        row("NotIn other value", null, affinity(term(expr("gpu", "NotIn", "h100"))), true),
        row("NotIn missing label matches", null, affinity(term(expr("rack", "NotIn", "1"))), true),
        row("Exists", null, affinity(term(expr("gpu", "Exists"))), true),
        row("Exists missing", null, affinity(term(expr("rack", "Exists"))), false),
        row("Exists with values is invalid", null, affinity(term(expr("gpu", "Exists", "a100"))), false),
        row("DoesNotExist missing", null, affinity(term(expr("rack", "DoesNotExist"))), true),
        row("DoesNotExist present", null, affinity(term(expr("gpu", "DoesNotExist"))), false),
        row("Gt true", null, affinity(term(expr("gpus", "Gt", "4"))), true),
        row("Gt equal is false", null, affinity(term(expr("gpus", "Gt", "8"))), false),
        row("Lt true", null, affinity(term(expr("gpus", "Lt", "16"))), true),
        row("Lt false", null, affinity(term(expr("gpus", "Lt", "8"))), false),
        row("Gt non-integer label", null, affinity(term(expr("gpu", "Gt", "1"))), false),
        row("Gt non-integer value", null, affinity(term(expr("gpus", "Gt", "x"))), false),
        row("Gt two values is invalid", null, affinity(term(expr("gpus", "Gt", "1", "2"))), false),
        row("Gt missing label", null, affinity(term(expr("rack", "Gt", "1"))), false),
        row("unknown operator", null, affinity(term(expr("gpu", "Equals", "a100"))), false),
        row("expressions ANDed: all hold", null,
            affinity(term(expr("gpu", "In", "a100"), expr("zone", "In", "a"))), true),
        row("expressions ANDed: one fails", null,
            affinity(term(expr("gpu", "In", "a100"), expr("zone", "In", "b"))), false),
        row("terms ORed: second holds", null,
            affinity(term(expr("gpu", "In", "h100")), term(expr("zone", "In", "a"))), true),
        row("terms ORed: none holds", null,
            affinity(term(expr("gpu", "In", "h100")), term(expr("zone", "In", "b"))), false),
        row("invalid term does not spoil a valid one", null,
            affinity(term(expr("gpu", "In")), term(expr("zone", "In", "a"))), true),
        row("empty term matches nothing", null, affinity(new NodeSelectorTerm()), false),
        row("no terms matches nothing", null, affinity(), false),
        row("matchFields name In", null, affinity(fields(expr("metadata.name", "In", NODE))), true),
        row("matchFields name In other", null, affinity(fields(expr("metadata.name", "In", "gpu-2"))), false),
        row("matchFields name NotIn", null, affinity(fields(expr("metadata.name", "NotIn", "gpu-2"))), true),
        row("matchFields name NotIn self", null, affinity(fields(expr("metadata.name", "NotIn", NODE))), false),
        row("matchFields two values is invalid", null,
            affinity(fields(expr("metadata.name", "In", NODE, "gpu-2"))), false),
        row("matchFields other field is invalid", null, affinity(fields(expr("metadata.uid", "In", NODE))), false),
        row("matchFields Exists is invalid", null, affinity(fields(expr("metadata.name", "Exists"))), false),
        row("expressions and fields ANDed in a term", null, affinity(termWithFields(
            List.of(expr("gpu", "In", "a100")), List.of(expr("metadata.name", "In", "gpu-2")))), false),
        row("selector AND affinity: selector fails", Map.of("zone", "b"),
            affinity(term(expr("gpu", "Exists"))), false),
        row("selector AND affinity: both hold", Map.of("zone", "a"), affinity(term(expr("gpu", "Exists"))), true),
        row("only preferred terms: every node", null, new NodeAffinityBuilder()
            .addNewPreferredDuringSchedulingIgnoredDuringExecution().withWeight(1).withNewPreference()
            .addNewMatchExpression().withKey("gpu").withOperator("In").withValues("h100").endMatchExpression()
            .endPreference().endPreferredDuringSchedulingIgnoredDuringExecution().build(), true));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("table")
  void matchesLikeTheScheduler(String description, Map<String, String> selector, NodeAffinity affinity,
      boolean expected) {
    assertThat(NodeMatcher.matches(NODE, LABELS, selector, affinity)).as(description).isEqualTo(expected);
  }

  private static Arguments row(String d, Map<String, String> selector, NodeAffinity affinity, boolean expected) {
    return Arguments.of(d, selector, affinity, expected);
  }

  private static NodeSelectorRequirement expr(String key, String op, String... values) {
    return new NodeSelectorRequirement(key, op, new ArrayList<>(Arrays.asList(values)));
  }

  private static NodeSelectorTerm term(NodeSelectorRequirement... expressions) {
    return termWithFields(List.of(expressions), List.of());
  }

  private static NodeSelectorTerm fields(NodeSelectorRequirement... fields) {
    return termWithFields(List.of(), List.of(fields));
  }

  private static NodeSelectorTerm termWithFields(List<NodeSelectorRequirement> e, List<NodeSelectorRequirement> f) {
    return new NodeSelectorTerm(new ArrayList<>(e), new ArrayList<>(f));
  }

  private static NodeAffinity affinity(NodeSelectorTerm... terms) {
    return new NodeAffinityBuilder().withNewRequiredDuringSchedulingIgnoredDuringExecution()
        .withNodeSelectorTerms(terms).endRequiredDuringSchedulingIgnoredDuringExecution().build();
  }
}
