package dev.modelplane.operator.ome.modelagent;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelplane.operator.ome.storage.BaseModelKey;
import dev.modelplane.operator.ome.storage.NodeReport;
import dev.modelplane.operator.ome.storage.NodeReports;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Publishes the agent's per-model state on its node, as OME does: the node label {@code <labelKey>=<status>} and the
 * report JSON under the model's key in the node's ConfigMap (named after the node, labelled
 * {@code models.ome/basemodel-status=true}). Every write is a JSON merge patch of the model's own key only, so the
 * agent never overwrites what it did not write; a ConfigMap that is missing (never made, or removed with a deleted
 * node) is created. Remembers what it published, so removing a model that was never reported costs no request.
 */
final class NodeStatusWriter {
  private static final Logger LOG = LoggerFactory.getLogger(NodeStatusWriter.class);
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final PatchContext MERGE = PatchContext.of(PatchType.JSON_MERGE);

  private final KubernetesClient client;
  private final String nodeName;
  private final String namespace;
  private final Map<String, NodeReport> reports = new ConcurrentHashMap<>();
  private final int maxReports;

  /**
   * @param maxReports the most models this agent reports (ConfigMap entries and node labels); a model beyond gets
   *     neither, and a warning in the log
   */
  NodeStatusWriter(KubernetesClient client, String nodeName, String namespace, int maxReports) {
    this.client = client;
    this.nodeName = nodeName;
    this.namespace = namespace;
    this.maxReports = maxReports;
  }

  /** Reads the reports already in the node's ConfigMap (from an earlier run) and remembers them. */
  Map<String, NodeReport> load() {
    ConfigMap cm = client.configMaps().inNamespace(namespace).withName(nodeName).get();
    if (cm != null && cm.getData() != null) {
      cm.getData().forEach((key, json) -> reports.put(key, NodeReport.parse(json)));
    }
    return Map.copyOf(reports);
  }

  /** The last report published for {@code key}, or null. */
  NodeReport report(BaseModelKey key) {
    return reports.get(key.reportKey());
  }

  /** Every report key this agent has published (or found at start-up). */
  java.util.Set<String> reportKeys() {
    return java.util.Set.copyOf(reports.keySet());
  }

  /** Publishes a state change: the report and the node label. */
  void publish(BaseModelKey key, NodeReport report) {
    if (writeReport(key.reportKey(), report)) {
      patchNodeLabel(key.labelKey(), report.status());
    }
  }

  /** Publishes a progress update: the report only (the label stays Updating). */
  void progress(BaseModelKey key, NodeReport report) {
    writeReport(key.reportKey(), report);
  }

  /** Removes the model's label (if {@code labelled}) and report (if one was published). */
  void remove(BaseModelKey key, boolean labelled) {
    removeReportKey(key.reportKey());
    if (labelled) {
      patchNodeLabel(key.labelKey(), null);
    }
  }

  /** Removes a report by its ConfigMap key (for models this agent no longer knows). */
  void removeReportKey(String reportKey) {
    if (reports.remove(reportKey) == null) {
      return;
    }
    ObjectNode patch = JSON.createObjectNode();
    patch.putObject("data").putNull(reportKey);
    try {
      client.configMaps().inNamespace(namespace).withName(nodeName).patch(MERGE, patch.toString());
    } catch (KubernetesClientException e) {
      if (e.getCode() != 404) {
        throw e;
      }
    }
  }

  /** Sets ({@code value} non-null) or removes a label of the node. */
  void patchNodeLabel(String label, String value) {
    ObjectNode patch = JSON.createObjectNode();
    ObjectNode labels = patch.putObject("metadata").putObject("labels");
    if (value == null) {
      labels.putNull(label);
    } else {
      labels.put(label, value);
    }
    try {
      client.nodes().withName(nodeName).patch(MERGE, patch.toString());
    } catch (KubernetesClientException e) {
      if (e.getCode() != 404) {
        throw e;
      }
      LOG.warn("agent.node-missing node={} label={}", nodeName, label);
    }
  }

  /** Whether a report under {@code key} may be written next to {@code present}: a known key, or room for one more. */
  static boolean admits(java.util.Set<String> present, String key, int max) {
    return present.contains(key) || present.size() < max;
  }

  /** Writes the report; false (nothing written) when it would be one model more than {@code maxReports}. */
  private boolean writeReport(String reportKey, NodeReport report) {
    if (!admits(reports.keySet(), reportKey, maxReports)) {
      LOG.warn("agent.report-limit node={} model={} reports={} limit={}", nodeName, reportKey, reports.size(),
          maxReports);
      return false;
    }
    String json = report.toJson();
    ObjectNode patch = JSON.createObjectNode();
    patch.putObject("metadata").putObject("labels").put(NodeReports.CONFIGMAP_LABEL, NodeReports.CONFIGMAP_LABEL_VALUE);
    patch.putObject("data").put(reportKey, json);
    for (int attempt = 0; attempt < 3; attempt++) {
      try {
        client.configMaps().inNamespace(namespace).withName(nodeName).patch(MERGE, patch.toString());
        reports.put(reportKey, report);
        return true;
      } catch (KubernetesClientException e) {
        if (e.getCode() != 404) {
          throw e;
        }
      }
      try {
        Map<String, String> data = new LinkedHashMap<>();
        data.put(reportKey, json);
        client.configMaps().inNamespace(namespace).resource(new ConfigMapBuilder().withNewMetadata()
            .withName(nodeName).withNamespace(namespace)
            .addToLabels(NodeReports.CONFIGMAP_LABEL, NodeReports.CONFIGMAP_LABEL_VALUE).endMetadata()
            .withData(data).build()).create();
        LOG.info("agent.configmap-created configmap={}/{}", namespace, nodeName);
        reports.put(reportKey, report);
        return true;
      } catch (KubernetesClientException e) {
        if (e.getCode() != 409) {
          throw e; // 409: created meanwhile; patch it on the next round
        }
      }
    }
    throw new IllegalStateException("the ConfigMap " + namespace + "/" + nodeName + " kept appearing and vanishing");
  }
}
