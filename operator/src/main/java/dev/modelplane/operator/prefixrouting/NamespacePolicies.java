package dev.modelplane.operator.prefixrouting;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.javaoperatorsdk.operator.api.config.informer.InformerEventSourceConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.informer.InformerEventSource;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The NetworkPolicies a pool's KV-events policy is settled against ({@link KvEventsPolicy#settle}), watched so that
 * a policy added, changed or removed in a namespace settles again every owner there that configures precise routing
 * (the annotation {@value PrecisePrefixStatus#CONFIG_ANNOTATION}); a KV-events policy of the operator wakes only its
 * owner, which puts it back when it was edited or deleted.
 */
public final class NamespacePolicies {
  /** The event source's name, within each controller. */
  public static final String SOURCE = "kv-events-networkpolicies";

  private NamespacePolicies() {
  }

  /** The event source for owners of type {@code primary}. */
  public static <P extends HasMetadata> InformerEventSource<NetworkPolicy, P> source(EventSourceContext<P> context,
      Class<P> primary) {
    String apiVersion = HasMetadata.getApiVersion(primary);
    String kind = HasMetadata.getKind(primary);
    return new InformerEventSource<>(InformerEventSourceConfiguration.from(NetworkPolicy.class, primary)
        .withName(SOURCE)
        .withNamespacesInheritedFromController()
        .withSecondaryToPrimaryMapper(policy -> KvEventsPolicy.ours(policy)
            ? owners(policy, apiVersion, kind)
            : context.getPrimaryCache().list(policy.getMetadata().getNamespace())
                .filter(NamespacePolicies::configuresPrecise).map(ResourceID::fromResource)
                .collect(Collectors.toSet()))
        .withPrimaryToSecondaryMapper((P owner) -> Set.of())
        .withOnUpdateFilter((newer, older) -> !Objects.equals(newer.getSpec(), older.getSpec())
            || !Objects.equals(newer.getMetadata().getLabels(), older.getMetadata().getLabels()))
        .build(), context);
  }

  /** Every NetworkPolicy of {@code namespace} the owner's controller has seen. */
  @SuppressWarnings("unchecked")
  public static <P extends HasMetadata> List<NetworkPolicy> in(Context<P> context, String namespace) {
    var source = (InformerEventSource<NetworkPolicy, P>) context.eventSourceRetriever()
        .getEventSourceFor(NetworkPolicy.class, SOURCE);
    return source.list(namespace).toList();
  }

  private static boolean configuresPrecise(HasMetadata owner) {
    Map<String, String> annotations = owner.getMetadata().getAnnotations();
    return annotations != null && annotations.containsKey(PrecisePrefixStatus.CONFIG_ANNOTATION);
  }

  private static Set<ResourceID> owners(NetworkPolicy policy, String apiVersion, String kind) {
    List<OwnerReference> refs = policy.getMetadata().getOwnerReferences();
    return refs == null ? Set.of() : refs.stream()
        .filter(r -> apiVersion.equals(r.getApiVersion()) && kind.equals(r.getKind()))
        .map(r -> new ResourceID(r.getName(), policy.getMetadata().getNamespace()))
        .collect(Collectors.toSet());
  }
}
