package dev.modelplane.operator.app;

import dev.modelplane.common.tracing.Tracing;
import dev.modelplane.operator.OperatorSettings;
import dev.modelplane.operator.common.EventRecorder;
import dev.modelplane.operator.llmkube.isvc.InferenceServiceFinalizer;
import dev.modelplane.operator.llmkube.isvc.LlmkubeInferenceServiceReconciler;
import dev.modelplane.operator.llmkube.model.ModelReconciler;
import dev.modelplane.operator.ome.basemodel.BaseModelReconciler;
import dev.modelplane.operator.ome.basemodel.ClusterBaseModelReconciler;
import dev.modelplane.operator.ome.basemodel.FineTunedWeightReconciler;
import dev.modelplane.operator.ome.benchmark.BenchmarkJobReconciler;
import dev.modelplane.operator.ome.isvc.OmeInferenceServiceReconciler;
import dev.modelplane.operator.otterscale.modelservice.ModelServiceReconciler;
import dev.modelplane.operator.modelsource.ModelInspector;
import dev.modelplane.operator.scheduling.GpuQueue;
import dev.modelplane.operator.scheduling.PriorityClassInstaller;
import dev.modelplane.operator.scheduling.QueueMetrics;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.Operator;
import io.javaoperatorsdk.operator.api.config.LeaderElectionConfiguration;
import io.javaoperatorsdk.operator.monitoring.micrometer.MicrometerMetrics;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The modelplane operator in one object: the JOSDK {@link Operator} with every controller registered, the GPU queue
 * and its metrics. Used by {@code modelplane operator} and, in-process, by the control-plane tests and benchmarks.
 */
public final class ModelplaneOperator implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ModelplaneOperator.class);

  private final Operator operator;
  private final GpuQueue queue;
  private final Runnable warmup;

  private ModelplaneOperator(Operator operator, GpuQueue queue, Runnable warmup) {
    this.operator = operator;
    this.queue = queue;
    this.warmup = warmup;
  }

  /**
   * Builds and registers the controllers; call {@link #start()} to run them.
   *
   * @param leaderElection lease settings, or null to run without leader election
   */
  public static ModelplaneOperator create(KubernetesClient client, OperatorSettings settings, MeterRegistry registry,
      LeaderElectionConfiguration leaderElection) {
    return create(client, settings, registry, leaderElection, Tracing.off());
  }

  /**
   * Builds and registers the controllers, each reconcile traced by {@code tracing} ({@link ReconcileSpans}); call
   * {@link #start()} to run them.
   */
  public static ModelplaneOperator create(KubernetesClient client, OperatorSettings settings, MeterRegistry registry,
      LeaderElectionConfiguration leaderElection, Tracing tracing) {
    Clock clock = Clock.systemUTC();
    Operator operator = new Operator(o -> {
      o.withKubernetesClient(client)
          .withCloseClientOnStop(false)
          .withUseSSAToPatchPrimaryResource(settings.useSsa())
          .withSSABasedCreateUpdateMatchForDependentResources(settings.useSsa())
          .withMetrics(ReconcileSpans.wrap(MicrometerMetrics.withoutPerResourceMetrics(registry), tracing));
      if (leaderElection != null) {
        o.withLeaderElectionConfiguration(leaderElection);
      }
    });
    GpuQueue queue = new GpuQueue();
    QueueMetrics.bind(queue, registry);
    EventRecorder events = new EventRecorder(client, clock);
    Set<String> namespaces = settings.namespaces();
    ModelInspector inspector = new ModelInspector(settings.ggufTimeout(), settings.modelInspection());
    operator.register(new ModelReconciler(settings, inspector, events, clock),
        o -> {
          if (!namespaces.isEmpty()) {
            o.settingNamespaces(namespaces);
          }
        });
    LlmkubeInferenceServiceReconciler services = new LlmkubeInferenceServiceReconciler(settings, queue, events,
        clock);
    operator.register(services, o -> {
      if (!namespaces.isEmpty()) {
        o.settingNamespaces(namespaces);
      }
    });
    operator.register(new InferenceServiceFinalizer(services), o -> {
      if (!namespaces.isEmpty()) {
        o.settingNamespaces(namespaces);
      }
    });
    operator.register(new BaseModelReconciler(settings, events, clock), o -> {
      if (!namespaces.isEmpty()) {
        o.settingNamespaces(namespaces);
      }
    });
    operator.register(new ClusterBaseModelReconciler(settings, events, clock));
    operator.register(new FineTunedWeightReconciler(settings, events, clock));
    operator.register(new OmeInferenceServiceReconciler(settings, events, clock), o -> {
      if (!namespaces.isEmpty()) {
        o.settingNamespaces(namespaces);
      }
    });
    operator.register(new BenchmarkJobReconciler(settings, events, clock), o -> {
      if (!namespaces.isEmpty()) {
        o.settingNamespaces(namespaces);
      }
    });
    operator.register(new ModelServiceReconciler(settings, events, clock), o -> {
      if (!namespaces.isEmpty()) {
        o.settingNamespaces(namespaces);
      }
    });
    if (settings.createPriorityClasses()) {
      PriorityClassInstaller.install(client);
    }
    return new ModelplaneOperator(operator, queue,
        () -> StartupWarmup.run(settings, client.getKubernetesSerialization()));
  }

  public ModelplaneOperator start() {
    warmup.run();
    operator.start();
    LOG.info("operator started controllers={}", operator.getRegisteredControllersNumber());
    return this;
  }

  /** Whether the controllers are started and every informer is healthy. */
  public boolean ready() {
    return operator.getRuntimeInfo().isStarted() && operator.getRuntimeInfo().allEventSourcesAreHealthy();
  }

  /** Whether the operator was started (it may still be waiting for leadership). */
  public boolean started() {
    return operator.getRuntimeInfo().isStarted();
  }

  public GpuQueue queue() {
    return queue;
  }

  public Operator operator() {
    return operator;
  }

  @Override
  public void close() {
    operator.stop();
  }
}
