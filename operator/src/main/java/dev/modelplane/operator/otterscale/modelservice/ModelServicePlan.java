package dev.modelplane.operator.otterscale.modelservice;

import dev.modelplane.operator.prefixrouting.PrecisePrefixStatus;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.List;

/**
 * Everything a ModelService should have, from {@link ModelServicePlanner}.
 *
 * @param owned objects in the ModelService's namespace, owned by it (they go when it goes)
 * @param clusterScoped the picker's ClusterRoleBinding, when it gets one (removed by the finalizer)
 * @param unwanted objects in its namespace it may have had and must not have now ({@code apiVersion}, kind, name)
 * @param pickerConfig the picker's configuration, whose hash rolls the picker
 * @param precisePrefix how precise prefix-cache routing was rendered, or null when the picker does not use it
 */
public record ModelServicePlan(List<HasMetadata> owned, List<HasMetadata> clusterScoped, List<ObjectRef> unwanted,
    PickerConfig pickerConfig, PrecisePrefixStatus precisePrefix) {

  /**
   * An object by type and name.
   *
   * @param apiVersion its API version
   * @param kind its kind
   * @param name its name
   * @param clusterScoped whether it has no namespace
   */
  public record ObjectRef(String apiVersion, String kind, String name, boolean clusterScoped) {
  }

  public ModelServicePlan {
    owned = List.copyOf(owned);
    clusterScoped = List.copyOf(clusterScoped);
    unwanted = List.copyOf(unwanted);
  }
}
