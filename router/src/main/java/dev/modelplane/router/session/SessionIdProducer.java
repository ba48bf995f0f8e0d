package dev.modelplane.router.session;

import dev.modelplane.router.plugin.NamedPlugin;
import dev.modelplane.router.plugin.PluginHandle;
import dev.modelplane.router.plugin.PluginParameters;
import dev.modelplane.router.scheduling.Candidate;
import dev.modelplane.router.scheduling.InferenceRequest;
import dev.modelplane.router.scheduling.PrepareDataPlugin;
import java.util.List;
import java.util.Locale;

/**
 * {@code session-id-producer} (llm-d's name and parameters): before scheduling, reads the request's session
 * identifier from one header ({@code headerName}) or one cookie of the {@code Cookie} header ({@code cookieName}) and
 * publishes it, trimmed, as the request attribute {@code SessionIDDataKey} of this producer — which
 * {@code session_id} affinity reads with a source {@code {attribute: SessionIDDataKey, producer: <this plugin's
 * name>}}. Without an identifier nothing is published.
 */
public final class SessionIdProducer extends NamedPlugin implements PrepareDataPlugin {
  public static final String TYPE = "session-id-producer";
  /** llm-d's name for the published attribute. */
  public static final String ATTRIBUTE = "SessionIDDataKey";

  private final String headerName;
  private final String cookieName;
  private final String key;

  /** Exactly one of {@code headerName} and {@code cookieName} is non-empty. */
  SessionIdProducer(String name, String headerName, String cookieName) {
    super(TYPE, name);
    this.headerName = headerName;
    this.cookieName = cookieName;
    this.key = SessionIdSource.attributeKey(ATTRIBUTE, name());
  }

  /** Factory. Parameters: exactly one of {@code headerName} and {@code cookieName}. */
  public static SessionIdProducer create(String name, PluginParameters p, PluginHandle handle) {
    p.requireOnly("headerName", "cookieName");
    String header = p.text("headerName", "").trim().toLowerCase(Locale.ROOT);
    String cookie = p.text("cookieName", "").trim();
    if (header.isEmpty() == cookie.isEmpty()) {
      throw new IllegalArgumentException("exactly one of headerName or cookieName must be set"
          + (header.isEmpty() ? "" : ", not both"));
    }
    return new SessionIdProducer(name, header, cookie);
  }

  @Override
  public void prepareRequestData(InferenceRequest request, List<Candidate> candidates) {
    String id = headerName.isEmpty() ? cookie(request.header("cookie"), cookieName) : request.header(headerName);
    id = id == null ? "" : id.trim();
    if (!id.isEmpty()) {
      request.attribute(key, id);
    }
  }

  /** The value of cookie {@code name} in a {@code Cookie} header ({@code a=1; b=2}), or {@code null}. */
  static String cookie(String header, String name) {
    if (header == null) {
      return null;
    }
    for (String pair : header.split(";")) {
      String p = pair.trim();
      int eq = p.indexOf('=');
      if (eq > 0 && p.substring(0, eq).equals(name)) {
        return p.substring(eq + 1);
      }
    }
    return null;
  }
}
