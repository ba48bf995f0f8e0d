package dev.modelplane.operator.prefixrouting;

import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyBuilder;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPeerBuilder;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPort;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPortBuilder;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * The NetworkPolicy that keeps a pool's KV-event sockets to the pool itself. Events carry the prompts' token ids,
 * and whoever can publish on the picker's socket can fill its index with blocks of any endpoint; so only the
 * picker's pods may reach the servers' event and replay sockets (discovery), and only the pool's server pods the
 * picker's bound socket (central). The guarded pods' other ports stay open to every source, as they are without a
 * policy: a NetworkPolicy can only allow, and selecting the pods isolates every port no policy admits.
 */
public final class KvEventsPolicy {
  public static final String API_VERSION = "networking.k8s.io/v1";
  public static final String KIND = "NetworkPolicy";
  private static final int MAX_PORT = 65_535;

  private KvEventsPolicy() {
  }

  /**
   * The policy.
   *
   * @param name its name
   * @param namespace the pool's namespace
   * @param labels its labels
   * @param guarded the pods whose event sockets are guarded (servers in discovery mode, the picker in central mode)
   * @param peers the only pods admitted on {@code eventPorts}
   * @param eventPorts the guarded TCP ports
   */
  public static NetworkPolicy build(String name, String namespace, Map<String, String> labels,
      Map<String, String> guarded, Map<String, String> peers, List<Integer> eventPorts) {
    TreeSet<Integer> events = new TreeSet<>(eventPorts);
    List<NetworkPolicyPort> guardedPorts = events.stream().map(p -> new NetworkPolicyPortBuilder()
        .withProtocol("TCP").withPort(new IntOrString(p)).build()).toList();
    return new NetworkPolicyBuilder().withNewMetadata().withName(name).withNamespace(namespace).withLabels(labels)
        .endMetadata()
        .withNewSpec().withPodSelector(selector(guarded)).withPolicyTypes("Ingress")
        .addNewIngress().withFrom(new NetworkPolicyPeerBuilder().withPodSelector(selector(peers))
            .build()).withPorts(guardedPorts).endIngress()
        .addNewIngress().withPorts(otherPorts(events)).endIngress()
        .endSpec().build();
  }

  /** Every TCP port but {@code events}, as ranges, and every UDP and SCTP port. */
  static List<NetworkPolicyPort> otherPorts(TreeSet<Integer> events) {
    List<NetworkPolicyPort> out = new ArrayList<>();
    int from = 1;
    for (int p : events) {
      if (p > from) {
        out.add(range(from, p - 1));
      }
      from = p + 1;
    }
    if (from <= MAX_PORT) {
      out.add(range(from, MAX_PORT));
    }
    out.add(new NetworkPolicyPortBuilder().withProtocol("UDP").build());
    out.add(new NetworkPolicyPortBuilder().withProtocol("SCTP").build());
    return out;
  }

  private static LabelSelector selector(Map<String, String> labels) {
    return new LabelSelectorBuilder().withMatchLabels(labels).build();
  }

  private static NetworkPolicyPort range(int first, int last) {
    NetworkPolicyPortBuilder b = new NetworkPolicyPortBuilder().withProtocol("TCP").withPort(new IntOrString(first));
    return first == last ? b.build() : b.withEndPort(last).build();
  }
}
