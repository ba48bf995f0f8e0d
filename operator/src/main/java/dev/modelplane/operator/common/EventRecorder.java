package dev.modelplane.operator.common;

import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectReferenceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Clock;
import java.time.temporal.ChronoUnit;
import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes core/v1 Events about the operator's resources. Callers announce a problem once, when it appears, not on
 * every reconcile. A failed write is logged and otherwise ignored: events are best effort.
 */
public class EventRecorder {
  private static final Logger LOG = LoggerFactory.getLogger(EventRecorder.class);
  public static final String COMPONENT = "modelplane-operator";

  private final KubernetesClient client;
  private final Clock clock;

  public EventRecorder(KubernetesClient client, Clock clock) {
    this.client = client;
    this.clock = clock;
  }

  public void warning(HasMetadata object, String reason, String message) {
    record(object, "Warning", reason, message);
  }

  public void normal(HasMetadata object, String reason, String message) {
    record(object, "Normal", reason, message);
  }

  protected void record(HasMetadata object, String type, String reason, String message) {
    // Events about cluster-scoped objects live in "default", as kubectl describe looks for them there.
    String eventNamespace = object.getMetadata().getNamespace() == null ? "default"
        : object.getMetadata().getNamespace();
    String now = clock.instant().truncatedTo(ChronoUnit.SECONDS).toString();
    String name = object.getMetadata().getName() + "." + Long.toHexString(clock.millis())
        + String.format(Locale.ROOT, "%04x", ThreadLocalRandom.current().nextInt(0x10000));
    var event = new EventBuilder()
        .withNewMetadata().withName(name).withNamespace(eventNamespace).endMetadata()
        .withInvolvedObject(new ObjectReferenceBuilder()
            .withApiVersion(object.getApiVersion())
            .withKind(object.getKind())
            .withName(object.getMetadata().getName())
            .withNamespace(object.getMetadata().getNamespace())
            .withUid(object.getMetadata().getUid())
            .withResourceVersion(object.getMetadata().getResourceVersion())
            .build())
        .withType(type)
        .withReason(reason)
        .withMessage(message.length() > 1024 ? message.substring(0, 1021) + "..." : message)
        .withNewSource().withComponent(COMPONENT).endSource()
        .withReportingComponent(COMPONENT)
        .withFirstTimestamp(now)
        .withLastTimestamp(now)
        .withCount(1)
        .build();
    try {
      client.v1().events().inNamespace(eventNamespace).resource(event).create();
      LOG.info("event type={} reason={} object={}/{}/{} message=\"{}\"", type, reason, object.getKind(),
          object.getMetadata().getNamespace(), object.getMetadata().getName(), message);
    } catch (KubernetesClientException e) {
      LOG.warn("event write failed object={}/{} reason={} error=\"{}\"", object.getMetadata().getNamespace(),
          object.getMetadata().getName(), reason, e.getMessage());
    }
  }
}
