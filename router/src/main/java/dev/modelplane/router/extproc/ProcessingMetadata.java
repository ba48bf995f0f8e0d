package dev.modelplane.router.extproc;

import com.google.protobuf.Struct;
import com.google.protobuf.Value;
import io.envoyproxy.envoy.service.ext_proc.v3.ProcessingRequest;
import java.util.ArrayList;
import java.util.List;

/** What the proxy tells the picker in a processing request's metadata context (Endpoint Picker Protocol). */
final class ProcessingMetadata {
  private ProcessingMetadata() {
  }

  /**
   * {@code envoy.lb.subset_hint / x-gateway-destination-endpoint-subset}: a list, or a CSV string; {@code null} when
   * the request carries no hint (an empty list is a hint that allows nothing).
   */
  static List<String> subsetHint(ProcessingRequest req) {
    if (!req.hasMetadataContext()) {
      return null;
    }
    Struct ns = req.getMetadataContext().getFilterMetadataMap().get(EppProtocol.SUBSET_FILTER_NAMESPACE);
    if (ns == null || !ns.containsFields(EppProtocol.SUBSET_FILTER_KEY)) {
      return null;
    }
    Value v = ns.getFieldsOrThrow(EppProtocol.SUBSET_FILTER_KEY);
    List<String> hint = new ArrayList<>();
    if (v.hasListValue()) {
      for (Value item : v.getListValue().getValuesList()) {
        if (item.hasStringValue()) {
          hint.add(item.getStringValue());
        }
      }
    } else if (v.hasStringValue()) {
      for (String s : v.getStringValue().split(",")) {
        if (!s.isBlank()) {
          hint.add(s.trim());
        }
      }
    }
    return hint;
  }

  /** {@code envoy.lb / x-gateway-destination-endpoint-served} on the response path; {@code null} when absent. */
  static String servedEndpoint(ProcessingRequest req) {
    if (!req.hasMetadataContext()) {
      return null;
    }
    Struct ns = req.getMetadataContext().getFilterMetadataMap().get(EppProtocol.DESTINATION_ENDPOINT_NAMESPACE);
    if (ns == null || !ns.containsFields(EppProtocol.DESTINATION_ENDPOINT_SERVED_KEY)) {
      return null;
    }
    Value v = ns.getFieldsOrThrow(EppProtocol.DESTINATION_ENDPOINT_SERVED_KEY);
    return v.hasStringValue() ? v.getStringValue() : null;
  }
}
