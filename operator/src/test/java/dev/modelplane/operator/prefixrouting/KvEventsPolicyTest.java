package dev.modelplane.operator.prefixrouting;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPort;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

class KvEventsPolicyTest {
  static List<String> ports(List<NetworkPolicyPort> ports) {
    return ports.stream().map(p -> p.getProtocol() + (p.getPort() == null ? "" : ":" + p.getPort().getIntVal()
        + (p.getEndPort() == null ? "" : "-" + p.getEndPort()))).toList();
  }

  @Test
  void onlyThePeersReachTheEventPortsAndEveryOtherPortStaysOpen() {
    NetworkPolicy policy = KvEventsPolicy.build("qwen-epp-kv-events", "team", Map.of("a", "b"), Map.of("pod", "server"),
        Map.of("pod", "picker"), List.of(5558, 5556));
    assertThat(policy.getApiVersion()).isEqualTo(KvEventsPolicy.API_VERSION);
    assertThat(policy.getKind()).isEqualTo(KvEventsPolicy.KIND);
    assertThat(policy.getMetadata().getNamespace()).isEqualTo("team");
    assertThat(policy.getSpec().getPodSelector().getMatchLabels()).containsExactly(Map.entry("pod", "server"));
    assertThat(policy.getSpec().getPolicyTypes()).containsExactly("Ingress");
    var rules = policy.getSpec().getIngress();
    assertThat(rules).hasSize(2);
    assertThat(rules.get(0).getFrom()).singleElement().satisfies(peer -> {
      assertThat(peer.getPodSelector().getMatchLabels()).containsExactly(Map.entry("pod", "picker"));
      assertThat(peer.getNamespaceSelector()).isNull();
    });
    assertThat(ports(rules.get(0).getPorts())).containsExactly("TCP:5556", "TCP:5558");
    assertThat(rules.get(1).getFrom()).isNullOrEmpty();
    assertThat(ports(rules.get(1).getPorts())).containsExactly("TCP:1-5555", "TCP:5557", "TCP:5559-65535", "UDP",
        "SCTP");
  }

  @Test
  void theFirstAndLastPortsLeaveNoEmptyRange() {
    assertThat(ports(KvEventsPolicy.otherPorts(new TreeSet<>(List.of(1, 65_535))))).containsExactly("TCP:2-65534",
        "UDP", "SCTP");
  }

  private static final Map<String, String> DECODE = Map.of("pod", "server", "role", "decode", "app", "qwen");
  private static final Map<String, String> PREFILL = Map.of("pod", "server", "role", "prefill", "app", "qwen");
  private static final Map<String, String> PICKER = Map.of("pod", "picker", "app", "qwen");

  private static NetworkPolicy guard() {
    return KvEventsPolicy.build("qwen-epp-kv-events", "team", Map.of("a", "b"), Map.of("pod", "server"),
        Map.of("pod", "picker"), List.of(5557));
  }

  private static NetworkPolicy user(String name, String yamlSpec) {
    return io.fabric8.kubernetes.client.utils.Serialization.unmarshal("""
        apiVersion: networking.k8s.io/v1
        kind: NetworkPolicy
        metadata: {name: %s, namespace: team}
        spec: %s
        """.formatted(name, yamlSpec), NetworkPolicy.class);
  }

  @Test
  void thePolicyIsMarkedAsTheOperatorsOwn() {
    assertThat(guard().getMetadata().getLabels()).containsEntry("a", "b")
        .containsEntry(KvEventsPolicy.LABEL, KvEventsPolicy.LABEL_VALUE);
    assertThat(KvEventsPolicy.ours(guard())).isTrue();
    assertThat(KvEventsPolicy.ours(user("mine", "{podSelector: {}}"))).isFalse();
  }

  @Test
  void withNoOtherPolicyTheOtherPortsStayOpen() {
    NetworkPolicy egressOnly = user("egress", "{podSelector: {}, policyTypes: [Egress]}");
    NetworkPolicy elsewhere = user("web", "{podSelector: {matchLabels: {app: web}}}");
    var settled = KvEventsPolicy.settle(guard(), List.of(DECODE, PREFILL, PICKER), List.of(egressOnly, elsewhere));
    assertThat(settled.problem()).isNull();
    assertThat(settled.policy().getSpec().getIngress()).hasSize(2);
  }

  @Test
  void aDefaultDenyNamespaceKeepsItsDenialAndOnlyTheEventsPortsAreAdded() {
    NetworkPolicy deny = user("default-deny", "{podSelector: {}}");
    var settled = KvEventsPolicy.settle(guard(), List.of(DECODE, PREFILL, PICKER), List.of(deny));
    assertThat(settled.problem()).isNull();
    assertThat(settled.policy().getSpec().getIngress()).singleElement().satisfies(rule -> {
      assertThat(ports(rule.getPorts())).containsExactly("TCP:5557");
      assertThat(rule.getFrom()).singleElement()
          .satisfies(peer -> assertThat(peer.getPodSelector().getMatchLabels()).containsEntry("pod", "picker"));
    });
    assertThat(guard().getSpec().getIngress()).as("the rendered policy is not changed").hasSize(2);
  }

  @Test
  void policiesSelectingByExpressionsOrTypesCount() {
    NetworkPolicy byExpression = user("servers", """
        {podSelector: {matchExpressions: [{key: role, operator: In, values: [decode, prefill]},
          {key: canary, operator: DoesNotExist}]}, policyTypes: [Ingress, Egress]}""");
    assertThat(KvEventsPolicy.settle(guard(), List.of(DECODE, PREFILL), List.of(byExpression)).policy().getSpec()
        .getIngress()).hasSize(1);
    NetworkPolicy notThem = user("others", "{podSelector: {matchExpressions: [{key: app, operator: NotIn, "
        + "values: [qwen]}]}}");
    NetworkPolicy absent = user("canaries", "{podSelector: {matchExpressions: [{key: canary, operator: Exists}]}}");
    assertThat(KvEventsPolicy.settle(guard(), List.of(DECODE, PREFILL), List.of(notThem, absent)).policy().getSpec()
        .getIngress()).hasSize(2);
  }

  @Test
  void anotherKvEventsPolicyIsNotTakenForTheUsers() {
    NetworkPolicy other = KvEventsPolicy.build("llama-epp-kv-events", "team", Map.of(), Map.of(),
        Map.of("pod", "picker"), List.of(5557));
    assertThat(KvEventsPolicy.settle(guard(), List.of(DECODE), List.of(other)).policy().getSpec().getIngress())
        .hasSize(2);
  }

  @Test
  void policiesSelectingOnlySomeGuardedPodsAreNotWidenedAndTheRestIsReported() {
    NetworkPolicy decodeOnly = user("decode-ingress", "{podSelector: {matchLabels: {role: decode}}}");
    var settled = KvEventsPolicy.settle(guard(), List.of(DECODE, PREFILL, PICKER), List.of(decodeOnly));
    assertThat(settled.policy().getSpec().getIngress()).hasSize(1);
    assertThat(settled.problem()).isEqualTo("NetworkPolicy qwen-epp-kv-events: the namespace's NetworkPolicies "
        + "decode-ingress select some of the pods whose KV-event sockets it guards, but not those labelled "
        + "{app=qwen,pod=server,role=prefill}; it does not open their other ports, which would open them on the "
        + "others too, so those pods accept nothing else until a NetworkPolicy of the namespace admits it");
  }
}
