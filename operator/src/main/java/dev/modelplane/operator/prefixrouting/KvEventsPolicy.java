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
  /**
   * The owner's annotation that turns the policy off ({@value #OPT_OUT_VALUE}): for a network plugin that does not
   * enforce {@code endPort} port ranges, on which the rule opening the other ports would open only each range's first
   * port.
   */
  public static final String OPT_OUT_ANNOTATION = "modelplane.dev/kv-events-network-policy";
  public static final String OPT_OUT_VALUE = "none";
  /** The name suffix of the peers' egress allowance. */
  public static final String EGRESS_SUFFIX = "-egress";
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
        .addNewIngress().withPorts(new NetworkPolicyPortBuilder().withProtocol("UDP").build()).endIngress()
        .addNewIngress().withPorts(new NetworkPolicyPortBuilder().withProtocol("SCTP").build()).endIngress()
        .endSpec().build();
  }

  /**
   * The policy as it is to be applied among the namespace's policies, and the egress allowance its peers need.
   *
   * <p>Ingress: when no other policy selects a guarded pod for ingress, {@code policy} as rendered; else without its
   * rules opening the other ports (which would widen what those policies allow), with a problem to report when they
   * select only some guarded pods (the others then accept only their events traffic). Egress: when other policies
   * select the peers for egress, those peers could not connect to the event sockets, so a second policy
   * ({@code <name>-egress}) admits their egress to the guarded pods on the events ports; peers no other policy
   * isolates get none, which would cut the rest of their egress.
   *
   * @param policy what {@link #build} rendered
   * @param pods the label sets of the pool's pod templates as they run; those the selectors match are the guarded
   *     pods and their peers
   * @param namespacePolicies every NetworkPolicy of the namespace (the operator's KV-events ones are skipped)
   */
  public static Settled settle(NetworkPolicy policy, Collection<Map<String, String>> pods,
      Collection<NetworkPolicy> namespacePolicies) {
    LabelSelector own = policy.getSpec().getPodSelector();
    var events = policy.getSpec().getIngress().getFirst();
    LabelSelector peerSelector = events.getFrom().getFirst().getPodSelector();
    List<NetworkPolicy> others = namespacePolicies.stream().filter(p -> !ours(p)).toList();
    List<String> problems = new ArrayList<>();

    Selection ingress = selection(pods, own, others.stream().filter(KvEventsPolicy::isolatesIngress).toList());
    NetworkPolicy applied = policy;
    if (!ingress.governing().isEmpty()) {
      applied = new NetworkPolicyBuilder(policy).editSpec().withIngress(events).endSpec().build();
      if (!ingress.free().isEmpty()) {
        problems.add("NetworkPolicy " + policy.getMetadata().getName() + ": the namespace's NetworkPolicies "
            + String.join(", ", ingress.governing()) + " select some of the pods whose KV-event sockets it guards, "
            + "but not those labelled " + describe(ingress.free()) + "; it does not open their other ports, which "
            + "would open them on the others too, so those pods accept nothing else until a NetworkPolicy of the "
            + "namespace admits it");
      }
    }

    Selection egress = selection(pods, peerSelector, others.stream().filter(KvEventsPolicy::isolatesEgress)
        .toList());
    NetworkPolicy allowance = null;
    if (!egress.governing().isEmpty()) {
      String name = policy.getMetadata().getName() + EGRESS_SUFFIX;
      if (egress.free().isEmpty()) {
        allowance = new NetworkPolicyBuilder().withNewMetadata().withName(name)
            .withNamespace(policy.getMetadata().getNamespace()).withLabels(policy.getMetadata().getLabels())
            .endMetadata().withNewSpec().withPodSelector(peerSelector).withPolicyTypes("Egress")
            .addNewEgress().addNewTo().withPodSelector(own).endTo().withPorts(events.getPorts()).endEgress()
            .endSpec().build();
      } else {
        problems.add("NetworkPolicy " + name + ": the namespace's NetworkPolicies " + String.join(", ",
            egress.governing()) + " restrict the egress of some of the pods that connect to the KV-event sockets, "
            + "but not of those labelled " + describe(egress.free()) + "; no egress allowance is rendered, since it "
            + "would restrict those, so the others cannot reach the sockets until a NetworkPolicy of the namespace "
            + "admits it");
      }
    }
    return new Settled(applied, allowance, problems.isEmpty() ? null : String.join("; ", problems));
  }

  /** The pods {@code selector} selects, split into those some of {@code policies} select and the rest. */
  private static Selection selection(Collection<Map<String, String>> pods, LabelSelector selector,
      List<NetworkPolicy> policies) {
    List<Map<String, String>> free = new ArrayList<>();
    TreeSet<String> governing = new TreeSet<>();
    for (Map<String, String> labels : pods) {
      if (!selects(selector, labels)) {
        continue;
      }
      List<String> selecting = policies.stream().filter(p -> selects(p.getSpec().getPodSelector(), labels))
          .map(p -> p.getMetadata().getName()).toList();
      if (selecting.isEmpty()) {
        free.add(labels);
      }
      governing.addAll(selecting);
    }
    return new Selection(governing, free);
  }

  private record Selection(TreeSet<String> governing, List<Map<String, String>> free) {
  }

  /**
   * A policy to apply, and what to report about it.
   *
   * @param policy the policy
   * @param egress the peers' egress allowance ({@code <name>-egress}), or null when none is needed
   * @param problem null, or why some pods are left with only part of what they need
   */
  public record Settled(NetworkPolicy policy, NetworkPolicy egress, String problem) {
  }

  /**
   * Whether the owner's annotations turn the policy off; a value other than {@value #OPT_OUT_VALUE} adds a problem
   * to {@code problems} and leaves it on.
   */
  public static boolean optedOut(Map<String, String> annotations, Collection<String> problems) {
    String value = annotations == null ? null : annotations.get(OPT_OUT_ANNOTATION);
    if (value == null || value.isBlank()) {
      return false;
    }
    if (value.strip().equals(OPT_OUT_VALUE)) {
      return true;
    }
    problems.add("metadata.annotations[" + OPT_OUT_ANNOTATION + "]: \"" + value + "\" is not a value it takes; "
        + "only \"" + OPT_OUT_VALUE + "\" (render no NetworkPolicy for the KV-event sockets) is, and the policy is "
        + "rendered");
    return false;
  }

  /** Whether {@code policy} carries the KV-events label: how a plan's own policy is found before it is applied. */
  public static boolean marked(NetworkPolicy policy) {
    Map<String, String> labels = policy.getMetadata().getLabels();
    return labels != null && LABEL_VALUE.equals(labels.get(LABEL));
  }

  /**
   * Whether {@code policy} is one of the operator's applied KV-events policies: the label and a controlling owner (a
   * user's policy copied from one keeps the label, not the owner, and is taken for the user's).
   */
  public static boolean ours(NetworkPolicy policy) {
    var owners = policy.getMetadata().getOwnerReferences();
    return marked(policy) && owners != null
        && owners.stream().anyMatch(o -> Boolean.TRUE.equals(o.getController()));
  }

  /** Whether a policy decides its pods' ingress: {@code Ingress} among its types, or no types (ingress implied). */
  static boolean isolatesIngress(NetworkPolicy policy) {
    List<String> types = policy.getSpec() == null ? null : policy.getSpec().getPolicyTypes();
    return policy.getSpec() != null && (types == null || types.isEmpty() || types.contains("Ingress"));
  }

  /**
   * Whether a policy decides its pods' egress: {@code Egress} among its types, or no types and egress rules (a
   * policy without types is taken as egress only when it has them).
   */
  static boolean isolatesEgress(NetworkPolicy policy) {
    if (policy.getSpec() == null) {
      return false;
    }
    List<String> types = policy.getSpec().getPolicyTypes();
    return types == null || types.isEmpty() ? policy.getSpec().getEgress() != null
        && !policy.getSpec().getEgress().isEmpty() : types.contains("Egress");
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

  private static String describe(List<Map<String, String>> pods) {
    return pods.stream().map(labels -> labels.entrySet().stream().sorted(Map.Entry.comparingByKey())
        .map(e -> e.getKey() + "=" + e.getValue()).collect(Collectors.joining(",", "{", "}")))
        .collect(Collectors.joining(" or "));
  }

  /** Every TCP port but {@code events}, as ranges. */
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
