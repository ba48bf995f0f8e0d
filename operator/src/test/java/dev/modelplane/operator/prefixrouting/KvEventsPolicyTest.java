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
}
