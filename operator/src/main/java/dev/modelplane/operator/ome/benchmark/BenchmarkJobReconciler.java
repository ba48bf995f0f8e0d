package dev.modelplane.operator.ome.benchmark;

import dev.modelplane.api.ome.v1beta1.BenchmarkJob;
import dev.modelplane.api.ome.v1beta1.BenchmarkJobStatus;
import dev.modelplane.api.ome.v1beta1.BenchmarkState;
import dev.modelplane.operator.OperatorSettings;
import dev.modelplane.operator.common.CreateOrTake;
import dev.modelplane.operator.common.EventRecorder;
import dev.modelplane.operator.common.StatusWriter;
import dev.modelplane.operator.common.WorkloadPolicy;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.api.config.informer.InformerEventSourceConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.javaoperatorsdk.operator.processing.event.source.informer.InformerEventSource;
import java.time.Clock;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reconciles OME BenchmarkJobs: waits (Pending, looked at again every {@code pendingRecheck}) until the target is
 * ready and its model name known, then creates the one Job that runs genai-bench, never replaced; its state, the
 * failing container's message and the results summary of its pod become the status. Status is written only when it
 * changes, with an Event on every change of state.
 */
@ControllerConfiguration(name = BenchmarkJobReconciler.NAME)
public class BenchmarkJobReconciler implements Reconciler<BenchmarkJob> {
  public static final String NAME = "ome-benchmarkjob";
  private static final Logger LOG = LoggerFactory.getLogger(BenchmarkJobReconciler.class);
  private static final String JOBS = "benchmark-jobs";
  private static final String PODS = "benchmark-pods";

  private final OperatorSettings settings;
  private final EventRecorder events;
  private final Clock clock;
  private final ModelNameProbe probe;

  public BenchmarkJobReconciler(OperatorSettings settings, EventRecorder events, Clock clock) {
    this(settings, events, clock, new ModelNameProbe(settings.modelInspection()));
  }

  BenchmarkJobReconciler(OperatorSettings settings, EventRecorder events, Clock clock, ModelNameProbe probe) {
    this.settings = settings;
    this.events = events;
    this.clock = clock;
    this.probe = probe;
  }

  @Override
  public List<EventSource<?, BenchmarkJob>> prepareEventSources(EventSourceContext<BenchmarkJob> context) {
    var jobs = InformerEventSourceConfiguration.from(Job.class, BenchmarkJob.class).withName(JOBS)
        .withNamespacesInheritedFromController().withLabelSelector(BenchmarkJobBuilder.LABEL).build();
    var pods = InformerEventSourceConfiguration.from(Pod.class, BenchmarkJob.class).withName(PODS)
        .withNamespacesInheritedFromController().withLabelSelector(BenchmarkJobBuilder.LABEL)
        .withSecondaryToPrimaryMapper(p -> Set.of(new ResourceID(
            p.getMetadata().getLabels().get(BenchmarkJobBuilder.LABEL), p.getMetadata().getNamespace())))
        .withOnUpdateFilter((newer, older) -> !Objects.equals(newer.getStatus(), older.getStatus()))
        .build();
    return List.of(new InformerEventSource<>(jobs, context), new InformerEventSource<>(pods, context));
  }

  @Override
  public UpdateControl<BenchmarkJob> reconcile(BenchmarkJob benchmark, Context<BenchmarkJob> context) {
    BenchmarkJobStatus old = benchmark.getStatus();
    Optional<Job> job = context.getSecondaryResource(Job.class, JOBS)
        .filter(j -> j.getMetadata().getOwnerReferences().stream()
            .anyMatch(r -> Objects.equals(r.getUid(), benchmark.getMetadata().getUid())));
    if (job.isPresent()) {
      List<Pod> pods = context.getSecondaryResourcesAsStream(Pod.class)
          .filter(p -> Objects.equals(p.getMetadata().getLabels().get("batch.kubernetes.io/controller-uid"),
              job.get().getMetadata().getUid())
              || Objects.equals(p.getMetadata().getLabels().get("controller-uid"), job.get().getMetadata().getUid()))
          .toList();
      record(benchmark, BenchmarkStatusAggregator.observed(old, job.get(), pods, clock.instant()), context);
      return UpdateControl.noUpdate();
    }
    if (old != null && old.startTime() != null) {
      // The Job ran and is gone (deleted by someone, or by its TTL): a finished run keeps its result; a running one
      // is not started again.
      if (old.state() == BenchmarkState.Running) {
        record(benchmark, new BenchmarkJobStatus(BenchmarkState.Failed, old.startTime(),
            BenchmarkStatusAggregator.time(clock.instant()), old.lastReconcileTime(), "the benchmark Job "
            + benchmark.getMetadata().getName() + " was deleted before it finished", null, old.modelName(),
            old.apiBase(), old.reportLocation(), null, null), context);
      }
      return UpdateControl.noUpdate();
    }
    return start(benchmark, context);
  }

  /** Resolves the target and its model, then creates the Job; Pending (and looked at again) until both are known. */
  private UpdateControl<BenchmarkJob> start(BenchmarkJob benchmark, Context<BenchmarkJob> context) {
    BenchmarkJobStatus old = benchmark.getStatus();
    KubernetesClient client = context.getClient();
    var resolution = new EndpointResolver(client, settings.benchmark(), settings.modelStorage().paths())
        .resolve(benchmark.getMetadata().getNamespace(), benchmark.getSpec().endpoint());
    if (resolution.refused() != null) {
      return refused(benchmark, resolution.refused().field(), resolution.refused().message(), context);
    }
    if (resolution.target() == null) {
      return pending(benchmark, "waiting for the endpoint: " + resolution.waiting(), context);
    }
    BenchmarkTarget target = resolution.target();
    if (target.modelName() == null) {
      ModelNameProbe.Outcome found = probe.find(target);
      if (found.model() == null) {
        if (found.refused() != null && benchmark.getSpec().endpoint().endpoint() != null) {
          return refused(benchmark, "spec.endpoint.endpoint.url", "the operator may not ask this endpoint for its "
              + "model list: " + found.refused() + "; set spec.endpoint.endpoint.modelName instead", context);
        }
        return pending(benchmark, "waiting for the model name: no model listed by /v1/models at "
            + String.join(", ", target.modelProbes())
            + (found.refused() == null ? "" : "; spec.endpoint.inferencePool.routerUrl may not be asked: "
            + found.refused()), context);
      }
      target = target.withModelName(found.model());
    }
    Job desired;
    try {
      desired = BenchmarkJobBuilder.build(benchmark, target, settings);
    } catch (BenchmarkConfigException e) {
      record(benchmark, BenchmarkStatusAggregator.invalid(old, e.getMessage()), context);
      return UpdateControl.noUpdate();
    }
    var refused = BenchmarkPolicy.violations(benchmark, target, desired);
    if (!refused.isEmpty() && !WorkloadPolicy.lifted(client, benchmark.getMetadata().getNamespace())) {
      // Looked at again, like a missing grant: the platform team may label the namespace without a spec change.
      record(benchmark, BenchmarkStatusAggregator.refused(old, WorkloadPolicy.describe(refused)), context);
      return UpdateControl.<BenchmarkJob>noUpdate().rescheduleAfter(settings.benchmark().pendingRecheck());
    }
    Job created = CreateOrTake.create(desired, client, () -> client.resource(desired).create());
    if (created.getMetadata().getOwnerReferences().stream()
        .noneMatch(r -> Objects.equals(r.getUid(), benchmark.getMetadata().getUid()))) {
      record(benchmark, BenchmarkStatusAggregator.invalid(old, "a Job named " + desired.getMetadata().getName()
          + " that this BenchmarkJob does not own exists already: delete or rename it"), context);
      return UpdateControl.<BenchmarkJob>noUpdate().rescheduleAfter(settings.benchmark().pendingRecheck());
    }
    LOG.atInfo().addKeyValue("benchmark", benchmark.getMetadata().getNamespace() + "/"
        + benchmark.getMetadata().getName()).addKeyValue("api_base", target.apiBase())
        .addKeyValue("model", target.modelName()).log("benchmark job created");
    record(benchmark, BenchmarkStatusAggregator.started(old, clock.instant(), target.modelName(), target.apiBase(),
        BenchmarkJobBuilder.reportLocation(benchmark)), context);
    return UpdateControl.noUpdate();
  }

  /**
   * Refuses the run without a Job: state {@code Failed}, the message naming {@code field}, a Warning Event
   * {@code PolicyRefused}. Looked at again every {@code pendingRecheck}, since what it lacks (a grant, say) may come
   * without a change of the spec.
   */
  private UpdateControl<BenchmarkJob> refused(BenchmarkJob benchmark, String field, String message,
      Context<BenchmarkJob> context) {
    record(benchmark, BenchmarkStatusAggregator.refused(benchmark.getStatus(), field + ": " + message), context);
    return UpdateControl.<BenchmarkJob>noUpdate().rescheduleAfter(settings.benchmark().pendingRecheck());
  }

  private UpdateControl<BenchmarkJob> pending(BenchmarkJob benchmark, String details, Context<BenchmarkJob> context) {
    record(benchmark, BenchmarkStatusAggregator.pending(benchmark.getStatus(), details), context);
    return UpdateControl.<BenchmarkJob>noUpdate().rescheduleAfter(settings.benchmark().pendingRecheck());
  }

  /** Writes {@code status} when it says something new, with an Event when the state or its reason changed. */
  private void record(BenchmarkJob benchmark, BenchmarkJobStatus status, Context<BenchmarkJob> context) {
    BenchmarkJobStatus old = benchmark.getStatus();
    if (BenchmarkStatusAggregator.same(old, status)) {
      return;
    }
    BenchmarkJobStatus stamped = BenchmarkStatusAggregator.stamped(status,
        BenchmarkStatusAggregator.time(clock.instant()));
    announce(benchmark, old, stamped);
    LOG.atInfo().addKeyValue("benchmark", benchmark.getMetadata().getNamespace() + "/"
        + benchmark.getMetadata().getName()).addKeyValue("state", stamped.state())
        .addKeyValue("details", stamped.details()).log("status");
    StatusWriter.write(benchmark, stamped, BenchmarkJob::new, context, settings.useSsa());
  }

  private void announce(BenchmarkJob benchmark, BenchmarkJobStatus old, BenchmarkJobStatus now) {
    BenchmarkState was = old == null ? null : old.state();
    switch (now.state()) {
      case Pending -> {
        if (was != BenchmarkState.Pending || !Objects.equals(old.details(), now.details())) {
          events.normal(benchmark, "BenchmarkPending", now.details());
        }
      }
      case Running -> {
        if (was != BenchmarkState.Running) {
          events.normal(benchmark, "BenchmarkStarted", "Job " + benchmark.getMetadata().getName() + " runs "
              + "genai-bench against " + now.apiBase() + " (model " + now.modelName() + ")");
        }
      }
      case Completed -> {
        if (was != BenchmarkState.Completed) {
          events.normal(benchmark, "BenchmarkCompleted", (now.results() == null ? "no" : now.results().size())
              + " iterations summarised; full report at " + now.reportLocation());
        }
      }
      case Failed -> {
        if (was != BenchmarkState.Failed || !Objects.equals(old.failureMessage(), now.failureMessage())) {
          events.warning(benchmark, BenchmarkStatusAggregator.isRefusal(now) ? BenchmarkStatusAggregator.POLICY_REFUSED
              : "BenchmarkFailed", now.failureMessage());
        }
      }
      default -> throw new IllegalStateException("unknown state " + now.state());
    }
  }
}
