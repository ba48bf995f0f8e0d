package dev.modelplane.router.session;

import dev.modelplane.router.plugin.PluginParameters;
import dev.modelplane.router.scheduling.InferenceRequest;
import java.util.Locale;

/**
 * One place a session identifier is read from, llm-d's {@code sessionIdConfig.sources} entry: a request header, or a
 * request attribute an earlier plugin published (such as {@code session-id-producer}'s {@code SessionIDDataKey}),
 * addressed by attribute name and the name of the plugin that produced it.
 *
 * @param header a request header name (lower case), or {@code null}
 * @param attribute an attribute name, or {@code null}
 * @param producer the producing plugin's name for {@code attribute} ({@code ""}: none)
 */
record SessionIdSource(String header, String attribute, String producer) {

  static SessionIdSource header(String name) {
    return new SessionIdSource(name.trim().toLowerCase(Locale.ROOT), null, "");
  }

  /** Reads {@code header}, or {@code attribute} and {@code producer}; exactly one of header and attribute. */
  static SessionIdSource from(PluginParameters p) {
    p.requireOnly("header", "attribute", "producer");
    String header = p.text("header", null);
    String attribute = p.text("attribute", null);
    if ((header == null) == (attribute == null)) {
      throw new IllegalArgumentException("exactly one of header or attribute must be set");
    }
    return header != null ? header(header) : new SessionIdSource(null, attribute, p.text("producer", ""));
  }

  /** The request-attribute key of an attribute published by {@code producer}: {@code <attribute>/<producer>}. */
  static String attributeKey(String attribute, String producer) {
    return attribute + "/" + producer;
  }

  /** The trimmed identifier this source finds on {@code request}; empty when none. */
  String read(InferenceRequest request) {
    Object value = header != null ? request.header(header) : request.attribute(attributeKey(attribute, producer));
    return value instanceof CharSequence s ? s.toString().trim() : "";
  }
}
