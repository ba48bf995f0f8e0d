package dev.modelplane.operator.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.modelplane.common.tracing.Tracing;
import dev.modelplane.common.tracing.TracingSettings;
import io.javaoperatorsdk.operator.api.monitoring.Metrics;
import io.javaoperatorsdk.operator.api.reconciler.Constants;
import io.javaoperatorsdk.operator.processing.GroupVersionKind;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.data.SpanData;
import java.util.Map;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.Test;

/** A span per reconcile, for every controller, through JOSDK's metrics hook; nothing when tracing is off. */
class ReconcileSpansTest {
  private final InMemorySpanExporter exporter = InMemorySpanExporter.create();

  private static Metrics.ControllerExecution<String> execution(Callable<String> body) {
    return new Metrics.ControllerExecution<>() {
      @Override
      public String name() {
        return "reconcile";
      }

      @Override
      public String controllerName() {
        return "modelservicereconciler";
      }

      @Override
      public String successTypeName(String result) {
        return result;
      }

      @Override
      public ResourceID resourceID() {
        return new ResourceID("svc-a", "team");
      }

      @Override
      public Map<String, Object> metadata() {
        return Map.of(Constants.RESOURCE_GVK_KEY, new GroupVersionKind("modelplane.dev", "v1alpha1", "ModelService"));
      }

      @Override
      public String execute() throws Exception {
        return body.call();
      }
    };
  }

  private Metrics traced() {
    TracingSettings on = TracingSettings.fromEnv(Map.of(), true, ReconcileSpans.SERVICE_NAME, null, "always_on", 1);
    return ReconcileSpans.wrap(Metrics.NOOP, Tracing.withExporter(on, exporter));
  }

  @Test
  void aReconcileIsOneSpanWithItsResourceOutcomeAndApiCalls() throws Exception {
    String result = traced().timeControllerExecution(execution(() -> {
      ReconcileSpans.API_CALLS.before(null, null, null);
      ReconcileSpans.API_CALLS.before(null, null, null);
      return "resource";
    }));
    assertThat(result).isEqualTo("resource");
    SpanData span = exporter.getFinishedSpanItems().get(0);
    assertThat(span.getName()).isEqualTo("operator.reconcile");
    assertThat(span.getAttributes().get(AttributeKey.stringKey("k8s.resource.kind"))).isEqualTo("ModelService");
    assertThat(span.getAttributes().get(AttributeKey.stringKey("k8s.namespace.name"))).isEqualTo("team");
    assertThat(span.getAttributes().get(AttributeKey.stringKey("k8s.resource.name"))).isEqualTo("svc-a");
    assertThat(span.getAttributes().get(AttributeKey.stringKey("modelplane.controller")))
        .isEqualTo("modelservicereconciler");
    assertThat(span.getAttributes().get(AttributeKey.stringKey("modelplane.reconcile.outcome")))
        .isEqualTo("resource");
    assertThat(span.getAttributes().get(AttributeKey.longKey("modelplane.reconcile.api_calls"))).isEqualTo(2L);
    ReconcileSpans.API_CALLS.before(null, null, null); // outside a reconcile: counted nowhere, no failure
  }

  @Test
  void aFailedReconcileIsAnErrorSpanAndTheFailurePassesThrough() {
    assertThatThrownBy(() -> traced().timeControllerExecution(execution(() -> {
      throw new IllegalStateException("conflict");
    }))).hasMessage("conflict");
    SpanData span = exporter.getFinishedSpanItems().get(0);
    assertThat(span.getStatus().getStatusCode()).isEqualTo(StatusCode.ERROR);
    assertThat(span.getAttributes().get(AttributeKey.stringKey("modelplane.reconcile.outcome")))
        .isEqualTo("exception");
  }

  @Test
  void offLeavesTheMetricsAsTheyAre() {
    assertThat(ReconcileSpans.wrap(Metrics.NOOP, Tracing.off())).isSameAs(Metrics.NOOP);
  }
}
