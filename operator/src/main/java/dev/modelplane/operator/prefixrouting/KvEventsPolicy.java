package dev.modelplane.operator.prefixrouting;

import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.LabelSelectorRequirement;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyBuilder;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPeerBuilder;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPort;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPortBuilder;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * The NetworkPolicy that keeps a pool's KV-event sockets to the pool itself. Events carry the prompts' token ids,
 * and whoever can publish on the picker's socket can fill its index with blocks of any endpoint; so only the
 * picker's pods may reach the servers' event and replay sockets (discovery), and only the pool's server pods the
 * picker's bound socket (central).
 *
 * <p>A NetworkPolicy can only allow, and a pod that any policy selects for ingress refuses every connection no policy
 * admits. So where no other policy of the namespace selects the guarded pods, this one also admits every other port
 * from every source, as without a policy; where other policies select all of them, it admits only the events ports
 * and leaves the rest to those policies, which it must not widen ({@link #settle}). The choice is made again
 * whenever a policy of the namespace changes.
 */
public final class KvEventsPolicy {
  public static final String API_VERSION = "networking.k8s.io/v1";
  public static final String KIND = "NetworkPolicy";
  /** The label marking the operator's KV-events policies, which are never taken for a user's policy. */
  public static final String LABEL = "modelplane.dev/network-policy";
  public static final String LABEL_VALUE = "kv-events";
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
    Map<String, String> marked = new HashMap<>(labels);
    marked.put(LABEL, LABEL_VALUE);
    return new NetworkPolicyBuilder().withNewMetadata().withName(name).withNamespace(namespace).withLabels(marked)
        .endMetadata()
        .withNewSpec().withPodSelector(selector(guarded)).withPolicyTypes("Ingress")
        .addNewIngress().withFrom(new NetworkPolicyPeerBuilder().withPodSelector(selector(peers))
            .build()).withPorts(guardedPorts).endIngress()
        .addNewIngress().withPorts(otherPorts(events)).endIngress()
        .endSpec().build();
  }

  /**
   * The policy as it is to be applied among the namespace's policies.
   *
   * @param policy what {@link #build} rendered
   * @param pods the label sets of the pool's pod templates; those its selector matches are the guarded ones
   * @param namespacePolicies every NetworkPolicy of the namespace (the operator's KV-events ones are skipped)
   * @return {@code policy} when no other policy selects a guarded pod for ingress; else {@code policy} without its
   *     rule opening the other ports, with a problem to report when other policies select only some guarded pods
   */
  public static Settled settle(NetworkPolicy policy, Collection<Map<String, String>> pods,
      Collection<NetworkPolicy> namespacePolicies) {
    LabelSelector own = policy.getSpec().getPodSelector();
    List<NetworkPolicy> others = namespacePolicies.stream().filter(p -> !ours(p) && isolatesIngress(p)).toList();
    List<Map<String, String>> guarded = pods.stream().filter(l -> selects(own, l)).toList();
    List<Map<String, String>> open = new ArrayList<>();
    TreeSet<String> governing = new TreeSet<>();
    for (Map<String, String> labels : guarded) {
      List<String> selecting = others.stream().filter(p -> selects(p.getSpec().getPodSelector(), labels))
          .map(p -> p.getMetadata().getName()).toList();
      if (selecting.isEmpty()) {
        open.add(labels);
      }
      governing.addAll(selecting);
    }
    if (governing.isEmpty()) {
      return new Settled(policy, null);
    }
    NetworkPolicy eventsOnly = new NetworkPolicyBuilder(policy).editSpec()
        .withIngress(policy.getSpec().getIngress().getFirst()).endSpec().build();
    if (open.isEmpty()) {
      return new Settled(eventsOnly, null);
    }
    return new Settled(eventsOnly, "NetworkPolicy " + policy.getMetadata().getName() + ": the namespace's "
        + "NetworkPolicies " + String.join(", ", governing) + " select some of the pods whose KV-event sockets it "
        + "guards, but not those labelled " + open.stream().map(KvEventsPolicy::describe)
            .collect(Collectors.joining(" or ")) + "; it does not open their other ports, which would open them "
        + "on the others too, so those pods accept nothing else until a NetworkPolicy of the namespace admits it");
  }

  /**
   * A policy to apply, and what to report about it.
   *
   * @param policy the policy
   * @param problem null, or why some guarded pods accept only their events traffic
   */
  public record Settled(NetworkPolicy policy, String problem) {
  }

  /** Whether {@code policy} is one of the operator's KV-events policies. */
  public static boolean ours(NetworkPolicy policy) {
    Map<String, String> labels = policy.getMetadata().getLabels();
    return labels != null && LABEL_VALUE.equals(labels.get(LABEL));
  }

  /** Whether a policy decides its pods' ingress: {@code Ingress} among its types, or no types (ingress implied). */
  static boolean isolatesIngress(NetworkPolicy policy) {
    List<String> types = policy.getSpec() == null ? null : policy.getSpec().getPolicyTypes();
    return policy.getSpec() != null && (types == null || types.isEmpty() || types.contains("Ingress"));
  }

  /** Whether a label selector selects a pod of {@code labels}; an empty selector selects every pod. */
  static boolean selects(LabelSelector selector, Map<String, String> labels) {
    if (selector == null) {
      return false;
    }
    Map<String, String> actual = labels == null ? Map.of() : labels;
    if (selector.getMatchLabels() != null && !selector.getMatchLabels().entrySet().stream()
        .allMatch(e -> e.getValue().equals(actual.get(e.getKey())))) {
      return false;
    }
    List<LabelSelectorRequirement> expressions = selector.getMatchExpressions() == null ? List.of()
        : selector.getMatchExpressions();
    return expressions.stream().allMatch(r -> {
      String value = actual.get(r.getKey());
      List<String> values = r.getValues() == null ? List.of() : r.getValues();
      return switch (r.getOperator()) {
        case "In" -> value != null && values.contains(value);
        case "NotIn" -> value == null || !values.contains(value);
        case "Exists" -> value != null;
        case "DoesNotExist" -> value == null;
        default -> false;
      };
    });
  }

  private static String describe(Map<String, String> labels) {
    return labels.entrySet().stream().sorted(Map.Entry.comparingByKey()).map(e -> e.getKey() + "=" + e.getValue())
        .collect(Collectors.joining(",", "{", "}"));
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
