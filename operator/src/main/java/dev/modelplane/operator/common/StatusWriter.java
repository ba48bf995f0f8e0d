package dev.modelplane.operator.common;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.CustomResource;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.PrimaryUpdateAndCacheUtils;
import java.util.function.Supplier;

/**
 * Writes a primary's status and puts the result in the controller's cache, so the very next reconcile of that
 * resource reads its own write (and does not, for instance, announce the same problem twice).
 */
public final class StatusWriter {
  private StatusWriter() {
  }

  /**
   * Writes {@code status} on {@code primary}: a server-side apply of the status subresource, or a status update when
   * SSA is off.
   *
   * @param empty makes an empty resource of the primary's type
   */
  public static <S, P extends CustomResource<?, S>> P write(P primary, S status, Supplier<P> empty,
      Context<P> context, boolean ssa) {
    if (ssa) {
      P patch = empty.get();
      patch.setMetadata(new ObjectMetaBuilder().withName(primary.getMetadata().getName())
          .withNamespace(primary.getMetadata().getNamespace()).build());
      patch.setStatus(status);
      return PrimaryUpdateAndCacheUtils.ssaPatchStatusAndCacheResource(primary, patch, context);
    }
    return PrimaryUpdateAndCacheUtils.updateStatusAndCacheResource(primary, context, r -> {
      r.setStatus(status);
      return r;
    });
  }
}
