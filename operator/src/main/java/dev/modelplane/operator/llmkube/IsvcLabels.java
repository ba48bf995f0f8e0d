package dev.modelplane.operator.llmkube;

import dev.modelplane.operator.common.Names;
import dev.modelplane.operator.common.OperatorLabels;
import java.util.LinkedHashMap;
import java.util.Map;

/** Label keys LLMKube puts on an InferenceService's objects (a contract: tools select pods by them). */
public final class IsvcLabels {
  public static final String APP = "app";
  public static final String MODEL = "inference.llmkube.dev/model";
  public static final String SERVICE = "inference.llmkube.dev/service";
  public static final String RUNTIME = "inference.llmkube.dev/runtime";

  private IsvcLabels() {
  }

  /** The Deployment selector and Service selector: only {@code app} and the service label, so it never changes. */
  public static Map<String, String> selector(String isvcName) {
    Map<String, String> labels = new LinkedHashMap<>();
    labels.put(APP, isvcName);
    labels.put(SERVICE, isvcName);
    return labels;
  }

  /** The selector as {@code status.selector} writes it for the scale subresource. */
  public static String selectorString(String isvcName) {
    return APP + "=" + isvcName + "," + SERVICE + "=" + isvcName;
  }

  /** Labels of every object and pod: the selector plus model, runtime and managed-by. */
  public static Map<String, String> operatorLabels(String isvcName, String modelRef, String runtime) {
    Map<String, String> labels = selector(isvcName);
    labels.put(MODEL, labelValue(modelRef));
    labels.put(RUNTIME, runtime);
    labels.put(OperatorLabels.MANAGED_BY, OperatorLabels.MANAGED_BY_VALUE);
    return labels;
  }

  /** A valid label value: Model names may be longer than 63 characters, label values may not. */
  static String labelValue(String value) {
    if (value == null) {
      return "";
    }
    if (value.length() <= Names.MAX_LABEL) {
      return value;
    }
    return value.substring(0, Names.MAX_LABEL - 9).replaceAll("[^A-Za-z0-9]+$", "") + "-"
        + Names.sha256Hex(value).substring(0, 8);
  }
}
