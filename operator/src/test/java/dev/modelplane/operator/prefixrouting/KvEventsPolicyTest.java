package dev.modelplane.operator.prefixrouting;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyBuilder;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPort;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

class KvEventsPolicyTest {
  private static final Map<String, String> DECODE = Map.of("pod", "server", "role", "decode", "app", "qwen");
  private static final Map<String, String> PREFILL = Map.of("pod", "server", "role", "prefill", "app", "qwen");
  private static final Map<String, String> PICKER = Map.of("pod", "picker", "app", "qwen");
  private static final List<Map<String, String>> POOL = List.of(DECODE, PREFILL, PICKER);

  static List<String> ports(List<NetworkPolicyPort> ports) {
    return ports.stream().map(p -> p.getProtocol() + (p.getPort() == null ? "" : ":" + p.getPort().getIntVal()
        + (p.getEndPort() == null ? "" : "-" + p.getEndPort()))).toList();
  }

  private static NetworkPolicy guard() {
    return KvEventsPolicy.build("qwen-epp-kv-events", "team", Map.of("a", "b"), Map.of("pod", "server"),
        Map.of("pod", "picker"), List.of(5557));
  }

  private static NetworkPolicy user(String name, String yamlSpec) {
    return Serialization.unmarshal("""
        apiVersion: networking.k8s.io/v1
        kind: NetworkPolicy
        metadata: {name: %s, namespace: team}
        spec: %s
        """.formatted(name, yamlSpec), NetworkPolicy.class);
  }

  /** {@code policy} as the API server holds it once the operator applied it: owned by its controller. */
  private static NetworkPolicy applied(NetworkPolicy policy) {
    return new NetworkPolicyBuilder(policy).editMetadata().addToOwnerReferences(new OwnerReferenceBuilder()
        .withApiVersion("otterscale.io/v1alpha1").withKind("ModelService").withName("qwen").withUid("u")
        .withController(true).build()).endMetadata().build();
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
    assertThat(rules).hasSize(4);
    assertThat(rules.get(0).getFrom()).singleElement().satisfies(peer -> {
      assertThat(peer.getPodSelector().getMatchLabels()).containsExactly(Map.entry("pod", "picker"));
      assertThat(peer.getNamespaceSelector()).isNull();
    });
    assertThat(ports(rules.get(0).getPorts())).containsExactly("TCP:5556", "TCP:5558");
    for (var rule : rules.subList(1, 4)) {
      assertThat(rule.getFrom()).isNullOrEmpty();
    }
    assertThat(ports(rules.get(1).getPorts())).containsExactly("TCP:1-5555", "TCP:5557", "TCP:5559-65535");
    // UDP and SCTP in rules of their own: a plugin that drops a rule naming SCTP keeps the TCP ports open.
    assertThat(ports(rules.get(2).getPorts())).containsExactly("UDP");
    assertThat(ports(rules.get(3).getPorts())).containsExactly("SCTP");
  }

  @Test
  void theFirstAndLastPortsLeaveNoEmptyRange() {
    assertThat(ports(KvEventsPolicy.otherPorts(new TreeSet<>(List.of(1, 65_535))))).containsExactly("TCP:2-65534");
  }

  @Test
  void thePolicyIsMarkedAndTakenForTheOperatorsOnlyWithItsControllingOwner() {
    assertThat(guard().getMetadata().getLabels()).containsEntry("a", "b")
        .containsEntry(KvEventsPolicy.LABEL, KvEventsPolicy.LABEL_VALUE);
    assertThat(KvEventsPolicy.marked(guard())).isTrue();
    assertThat(KvEventsPolicy.ours(guard())).as("a copy without the owner is a user's").isFalse();
    assertThat(KvEventsPolicy.ours(applied(guard()))).isTrue();
    assertThat(KvEventsPolicy.marked(user("mine", "{podSelector: {}}"))).isFalse();
  }

  @Test
  void withNoOtherPolicyTheOtherPortsStayOpenAndNoEgressIsTouched() {
    NetworkPolicy elsewhere = user("web", "{podSelector: {matchLabels: {app: web}}, policyTypes: [Ingress, Egress]}");
    var settled = KvEventsPolicy.settle(guard(), POOL, List.of(elsewhere));
    assertThat(settled.problem()).isNull();
    assertThat(settled.egress()).isNull();
    assertThat(settled.policy().getSpec().getIngress()).hasSize(4);
  }

  @Test
  void aDefaultDenyNamespaceKeepsItsDenialAndOnlyTheEventsPortsAreAdded() {
    NetworkPolicy deny = user("default-deny", "{podSelector: {}}");
    var settled = KvEventsPolicy.settle(guard(), POOL, List.of(deny));
    assertThat(settled.problem()).isNull();
    assertThat(settled.egress()).as("ingress only: egress is not restricted").isNull();
    assertThat(settled.policy().getSpec().getIngress()).singleElement().satisfies(rule -> {
      assertThat(ports(rule.getPorts())).containsExactly("TCP:5557");
      assertThat(rule.getFrom()).singleElement()
          .satisfies(peer -> assertThat(peer.getPodSelector().getMatchLabels()).containsEntry("pod", "picker"));
    });
    assertThat(guard().getSpec().getIngress()).as("the rendered policy is not changed").hasSize(4);
  }

  @Test
  void whereThePeersEgressIsRestrictedTheyAreAllowedToReachTheSockets() {
    NetworkPolicy deny = user("default-deny", "{podSelector: {}, policyTypes: [Ingress, Egress]}");
    var settled = KvEventsPolicy.settle(guard(), POOL, List.of(deny));
    assertThat(settled.problem()).isNull();
    NetworkPolicy egress = settled.egress();
    assertThat(egress.getMetadata().getName()).isEqualTo("qwen-epp-kv-events-egress");
    assertThat(egress.getMetadata().getLabels()).containsEntry(KvEventsPolicy.LABEL, KvEventsPolicy.LABEL_VALUE);
    assertThat(egress.getSpec().getPodSelector().getMatchLabels()).containsExactly(Map.entry("pod", "picker"));
    assertThat(egress.getSpec().getPolicyTypes()).containsExactly("Egress");
    assertThat(egress.getSpec().getIngress()).isNullOrEmpty();
    assertThat(egress.getSpec().getEgress()).singleElement().satisfies(rule -> {
      assertThat(ports(rule.getPorts())).containsExactly("TCP:5557");
      assertThat(rule.getTo()).singleElement()
          .satisfies(peer -> assertThat(peer.getPodSelector().getMatchLabels()).containsEntry("pod", "server"));
    });
    // A policy without types restricts egress only when it has egress rules.
    NetworkPolicy untyped = user("untyped", "{podSelector: {}, egress: [{ports: [{port: 53, protocol: UDP}]}]}");
    assertThat(KvEventsPolicy.settle(guard(), POOL, List.of(untyped)).egress()).isNotNull();
    assertThat(KvEventsPolicy.settle(guard(), POOL, List.of(user("untyped", "{podSelector: {}}"))).egress())
        .isNull();
  }

  @Test
  void policiesSelectingByExpressionsOrTypesCount() {
    NetworkPolicy byExpression = user("servers", """
        {podSelector: {matchExpressions: [{key: role, operator: In, values: [decode, prefill]},
          {key: canary, operator: DoesNotExist}]}, policyTypes: [Ingress]}""");
    assertThat(KvEventsPolicy.settle(guard(), POOL, List.of(byExpression)).policy().getSpec().getIngress())
        .hasSize(1);
    NetworkPolicy notThem = user("others", "{podSelector: {matchExpressions: [{key: app, operator: NotIn, "
        + "values: [qwen]}]}}");
    NetworkPolicy absent = user("canaries", "{podSelector: {matchExpressions: [{key: canary, operator: Exists}]}}");
    NetworkPolicy egressOnly = user("egress", "{podSelector: {}, policyTypes: [Egress]}");
    assertThat(KvEventsPolicy.settle(guard(), POOL, List.of(notThem, absent, egressOnly)).policy().getSpec()
        .getIngress()).hasSize(4);
  }

  @Test
  void theOperatorsOwnPoliciesAreNotTakenForTheUsersButACopyIs() {
    NetworkPolicy other = KvEventsPolicy.build("llama-epp-kv-events", "team", Map.of(), Map.of(),
        Map.of("pod", "picker"), List.of(5557));
    assertThat(KvEventsPolicy.settle(guard(), POOL, List.of(applied(other))).policy().getSpec().getIngress())
        .hasSize(4);
    assertThat(KvEventsPolicy.settle(guard(), POOL, List.of(other)).policy().getSpec().getIngress()).hasSize(1);
  }

  @Test
  void policiesSelectingOnlySomeGuardedPodsAreNotWidenedAndTheRestIsReported() {
    NetworkPolicy decodeOnly = user("decode-ingress", "{podSelector: {matchLabels: {role: decode}}}");
    var settled = KvEventsPolicy.settle(guard(), POOL, List.of(decodeOnly));
    assertThat(settled.policy().getSpec().getIngress()).hasSize(1);
    assertThat(settled.problem()).isEqualTo("NetworkPolicy qwen-epp-kv-events: the namespace's NetworkPolicies "
        + "decode-ingress select some of the pods whose KV-event sockets it guards, but not those labelled "
        + "{app=qwen,pod=server,role=prefill}; it does not open their other ports, which would open them on the "
        + "others too, so those pods accept nothing else until a NetworkPolicy of the namespace admits it");
  }

  @Test
  void peersOnlySomeOfWhoseEgressIsRestrictedGetNoAllowanceAndThatIsReported() {
    Map<String, String> canary = Map.of("pod", "picker", "app", "qwen", "track", "canary");
    NetworkPolicy stable = user("stable-egress", "{podSelector: {matchExpressions: [{key: track, operator: "
        + "DoesNotExist}]}, policyTypes: [Egress]}");
    List<Map<String, String>> pods = new ArrayList<>(POOL);
    pods.add(canary);
    var settled = KvEventsPolicy.settle(guard(), pods, List.of(stable));
    assertThat(settled.egress()).isNull();
    assertThat(settled.problem()).startsWith("NetworkPolicy qwen-epp-kv-events-egress: the namespace's "
        + "NetworkPolicies stable-egress restrict the egress of some of the pods that connect to the KV-event "
        + "sockets, but not of those labelled {app=qwen,pod=picker,track=canary}");
  }

  @Test
  void theOptOutAnnotationTakesNoneAndReportsAnythingElse() {
    List<String> problems = new ArrayList<>();
    assertThat(KvEventsPolicy.optedOut(Map.of(KvEventsPolicy.OPT_OUT_ANNOTATION, "none"), problems)).isTrue();
    assertThat(KvEventsPolicy.optedOut(Map.of(), problems)).isFalse();
    assertThat(KvEventsPolicy.optedOut(null, problems)).isFalse();
    assertThat(problems).isEmpty();
    assertThat(KvEventsPolicy.optedOut(Map.of(KvEventsPolicy.OPT_OUT_ANNOTATION, "off"), problems)).isFalse();
    assertThat(problems).containsExactly("metadata.annotations[modelplane.dev/kv-events-network-policy]: \"off\" is "
        + "not a value it takes; only \"none\" (render no NetworkPolicy for the KV-event sockets) is, and the policy "
        + "is rendered");
  }
}
