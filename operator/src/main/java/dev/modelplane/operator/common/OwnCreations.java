package dev.modelplane.operator.common;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.javaoperatorsdk.operator.processing.event.source.filter.OnAddFilter;

/**
 * An informer filter for objects only the operator creates (selected by its managed-by label): their ADD events are
 * the echo of the operator's own create, which often arrives before the create's response and so is not recognised
 * as its own — every new service would be reconciled a second time for nothing. Changes and deletions still wake
 * the owner, and a restarted operator reconciles every primary anyway.
 */
public class OwnCreations implements OnAddFilter<HasMetadata> {
  @Override
  public boolean accept(HasMetadata resource) {
    return false;
  }
}
