package dev.modelplane.operator.app;

import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderCallbacks;
import io.javaoperatorsdk.operator.api.config.LeaderElectionConfiguration;
import io.javaoperatorsdk.operator.api.config.LeaderElectionConfigurationBuilder;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Leader election through a {@code coordination.k8s.io/v1} Lease, with what the bare JOSDK setting lacks: the
 * process knows whether it leads (for {@code /readyz} and the {@code modelplane_operator_leader} gauge), losing the
 * lease without being asked to stop is reported to {@code onLost} (the command then exits non-zero, so the pod
 * restarts as a follower), and a graceful stop hands the lease back at once so a follower takes over within one retry
 * period instead of waiting for the lease to expire.
 */
public final class LeaderLease {
  private static final Logger LOG = LoggerFactory.getLogger(LeaderLease.class);

  /**
   * Timing of the election.
   *
   * @param leaseDuration how long followers wait after the last renewal before taking over
   * @param renewDeadline how long the leader keeps retrying a renewal before it gives up leading
   * @param retryPeriod pause between attempts to acquire or renew
   */
  public record Timing(Duration leaseDuration, Duration renewDeadline, Duration retryPeriod) {
    /** controller-runtime's defaults: 15 s, 10 s, 2 s. */
    public static Timing defaults() {
      return new Timing(Duration.ofSeconds(15), Duration.ofSeconds(10), Duration.ofSeconds(2));
    }

    public Timing {
      Objects.requireNonNull(leaseDuration, "leaseDuration");
      Objects.requireNonNull(renewDeadline, "renewDeadline");
      Objects.requireNonNull(retryPeriod, "retryPeriod");
      if (retryPeriod.isZero() || retryPeriod.isNegative()) {
        throw new IllegalArgumentException("the retry period must be positive, got " + text(retryPeriod));
      }
      if (renewDeadline.compareTo(retryPeriod) <= 0) {
        throw new IllegalArgumentException("the renew deadline (" + text(renewDeadline)
            + ") must be longer than the retry period (" + text(retryPeriod) + ")");
      }
      if (leaseDuration.compareTo(renewDeadline) <= 0) {
        throw new IllegalArgumentException("the lease duration (" + text(leaseDuration)
            + ") must be longer than the renew deadline (" + text(renewDeadline) + ")");
      }
    }

    private static String text(Duration d) {
      return d.toMillis() % 1000 == 0 ? d.toSeconds() + "s" : d.toMillis() + "ms";
    }
  }

  private final String name;
  private final String namespace;
  private final String identity;
  private final Timing timing;
  private final Runnable onLost;
  private final AtomicBoolean leading = new AtomicBoolean();
  private final AtomicBoolean stopping = new AtomicBoolean();

  /**
   * @param onLost called when leadership ends although {@link #stopping()} was not called
   */
  public LeaderLease(String name, String namespace, String identity, Timing timing, Runnable onLost) {
    this.name = Objects.requireNonNull(name, "name");
    this.namespace = Objects.requireNonNull(namespace, "namespace");
    this.identity = Objects.requireNonNull(identity, "identity");
    this.timing = Objects.requireNonNull(timing, "timing");
    this.onLost = Objects.requireNonNull(onLost, "onLost");
  }

  /** The JOSDK configuration: our callbacks, and no {@code System.exit} from inside the SDK. */
  public LeaderElectionConfiguration configuration() {
    return LeaderElectionConfigurationBuilder.aLeaderElectionConfiguration(name)
        .withLeaseNamespace(namespace)
        .withIdentity(identity)
        .withLeaseDuration(timing.leaseDuration())
        .withRenewDeadline(timing.renewDeadline())
        .withRetryPeriod(timing.retryPeriod())
        .withExitOnStopLeading(false)
        .withLeaderCallbacks(new LeaderCallbacks(this::started, this::ended, this::observed))
        .build();
  }

  /** Publishes {@code modelplane_operator_leader}: 1 while this process leads, else 0. */
  public LeaderLease bind(MeterRegistry registry) {
    Gauge.builder("modelplane.operator.leader", leading, b -> b.get() ? 1 : 0)
        .description("1 while this operator process holds the leader lease")
        .register(registry);
    return this;
  }

  public boolean leading() {
    return leading.get();
  }

  public String identity() {
    return identity;
  }

  /** Says the coming end of leadership is requested, so it is not reported as a loss. */
  public void stopping() {
    stopping.set(true);
  }

  /**
   * Hands the lease back if this process still holds it: clears the holder so followers can acquire it on their next
   * attempt. Call only after the controllers have stopped. An update conflict means someone else wrote the lease in
   * the meantime, which is fine.
   *
   * @return whether the lease was released
   */
  public boolean release(KubernetesClient client) {
    try {
      Lease lease = client.leases().inNamespace(namespace).withName(name).get();
      if (lease == null || lease.getSpec() == null || !identity.equals(lease.getSpec().getHolderIdentity())) {
        return false;
      }
      lease.getSpec().setHolderIdentity(null);
      lease.getSpec().setLeaseDurationSeconds(1);
      lease.getSpec().setRenewTime(ZonedDateTime.now().truncatedTo(ChronoUnit.MICROS));
      client.leases().inNamespace(namespace).resource(lease).update();
      LOG.info("released lease={}/{} identity={}", namespace, name, identity);
      return true;
    } catch (KubernetesClientException e) {
      LOG.warn("lease not released lease={}/{} code={} reason={}", namespace, name, e.getCode(), e.getMessage());
      return false;
    }
  }

  private void started() {
    leading.set(true);
    LOG.info("leading lease={}/{} identity={}", namespace, name, identity);
  }

  private void ended() {
    boolean was = leading.getAndSet(false);
    if (stopping.get()) {
      LOG.info("resigned lease={}/{} identity={}", namespace, name, identity);
    } else if (was) {
      LOG.error("lost lease={}/{} identity={}", namespace, name, identity);
      onLost.run();
    }
  }

  private void observed(String leader) {
    if (leader != null && !leader.isEmpty() && !identity.equals(leader)) {
      LOG.info("following lease={}/{} leader={}", namespace, name, leader);
    }
  }
}
