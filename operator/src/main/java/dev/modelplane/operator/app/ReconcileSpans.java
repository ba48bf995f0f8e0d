package dev.modelplane.operator.app;

import dev.modelplane.common.tracing.Tracing;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.http.BasicBuilder;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.Interceptor;
import io.javaoperatorsdk.operator.api.monitoring.Metrics;
import io.javaoperatorsdk.operator.api.reconciler.Constants;
import io.javaoperatorsdk.operator.api.reconciler.RetryInfo;
import io.javaoperatorsdk.operator.processing.Controller;
import io.javaoperatorsdk.operator.processing.GroupVersionKind;
import io.javaoperatorsdk.operator.processing.event.Event;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import java.util.Map;

/**
 * A span per reconcile ({@code operator.reconcile}: controller, kind, namespace, name, outcome, Kubernetes API calls
 * made on the reconciling thread), hooked once for every controller through JOSDK's {@link Metrics}, which times each
 * controller execution; every other call goes to the wrapped metrics unchanged.
 */
public final class ReconcileSpans implements Metrics {
  /** The operator's default {@code service.name}. */
  public static final String SERVICE_NAME = "modelplane-operator";
  /** API calls counted on the current thread, while a traced reconcile runs there. */
  private static final ThreadLocal<int[]> CALLS = new ThreadLocal<>();

  /** Counts the Kubernetes API requests a traced reconcile sends (install on the operator's client). */
  public static final Interceptor API_CALLS = new Interceptor() {
    @Override
    public void before(BasicBuilder builder, HttpRequest request, RequestTags tags) {
      int[] calls = CALLS.get();
      if (calls != null) {
        calls[0]++;
      }
    }
  };

  private final Metrics delegate;
  private final Tracer tracer;

  private ReconcileSpans(Metrics delegate, Tracing tracing) {
    this.delegate = delegate;
    this.tracer = tracing.tracer("dev.modelplane.operator");
  }

  /** {@code delegate} with a span per reconcile when {@code tracing} is on; {@code delegate} itself when off. */
  public static Metrics wrap(Metrics delegate, Tracing tracing) {
    return tracing.enabled() ? new ReconcileSpans(delegate, tracing) : delegate;
  }

  @Override
  public <T> T timeControllerExecution(ControllerExecution<T> execution) throws Exception {
    Span span = tracer.spanBuilder("operator.reconcile").startSpan();
    if (span.isRecording()) {
      span.setAttribute("modelplane.controller", execution.controllerName());
      span.setAttribute("modelplane.reconcile.operation", execution.name());
      if (execution.metadata() != null && execution.metadata().get(Constants.RESOURCE_GVK_KEY)
          instanceof GroupVersionKind gvk) {
        span.setAttribute("k8s.resource.kind", gvk.getKind());
        span.setAttribute("k8s.resource.api_version", gvk.apiVersion());
      }
      ResourceID id = execution.resourceID();
      if (id != null) {
        span.setAttribute("k8s.namespace.name", id.getNamespace().orElse(""));
        span.setAttribute("k8s.resource.name", id.getName());
      }
    }
    int[] calls = new int[1];
    int[] outer = CALLS.get();
    CALLS.set(calls);
    try (var scope = span.makeCurrent()) {
      T result = delegate.timeControllerExecution(execution);
      span.setAttribute("modelplane.reconcile.outcome", execution.successTypeName(result));
      return result;
    } catch (Exception | Error e) {
      span.setAttribute("modelplane.reconcile.outcome", "exception");
      span.setStatus(StatusCode.ERROR, String.valueOf(e.getMessage()));
      span.recordException(e);
      throw e;
    } finally {
      if (outer == null) {
        CALLS.remove();
      } else {
        CALLS.set(outer);
      }
      span.setAttribute("modelplane.reconcile.api_calls", calls[0]);
      span.end();
    }
  }

  @Override
  public void controllerRegistered(Controller<? extends HasMetadata> controller) {
    delegate.controllerRegistered(controller);
  }

  @Override
  public void receivedEvent(Event event, Map<String, Object> metadata) {
    delegate.receivedEvent(event, metadata);
  }

  @Override
  public void reconcileCustomResource(HasMetadata resource, RetryInfo retryInfo, Map<String, Object> metadata) {
    delegate.reconcileCustomResource(resource, retryInfo, metadata);
  }

  @Override
  public void failedReconciliation(HasMetadata resource, Exception exception, Map<String, Object> metadata) {
    delegate.failedReconciliation(resource, exception, metadata);
  }

  @Override
  public void reconciliationExecutionStarted(HasMetadata resource, Map<String, Object> metadata) {
    delegate.reconciliationExecutionStarted(resource, metadata);
  }

  @Override
  public void reconciliationExecutionFinished(HasMetadata resource, Map<String, Object> metadata) {
    delegate.reconciliationExecutionFinished(resource, metadata);
  }

  @Override
  public void cleanupDoneFor(ResourceID resourceID, Map<String, Object> metadata) {
    delegate.cleanupDoneFor(resourceID, metadata);
  }

  @Override
  public void finishedReconciliation(HasMetadata resource, Map<String, Object> metadata) {
    delegate.finishedReconciliation(resource, metadata);
  }

  @Override
  public <T extends Map<?, ?>> T monitorSizeOf(T map, String name) {
    return delegate.monitorSizeOf(map, name);
  }
}
