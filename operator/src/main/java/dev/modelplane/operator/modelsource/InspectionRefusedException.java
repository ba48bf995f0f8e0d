package dev.modelplane.operator.modelsource;

import java.io.IOException;

/**
 * The operator refused to read a remote model file for inspection: its scheme, host or address is not allowed, or a
 * redirect left the allowed hosts. The message names the host, the reason and the flag that would allow it.
 */
public final class InspectionRefusedException extends IOException {
  private final String host;
  private final String reason;
  private final String flag;

  InspectionRefusedException(String host, String reason, String flag) {
    super("refused to inspect a file on " + host + ": " + reason + (flag == null ? "" : " (allowed by " + flag + ")"));
    this.host = host;
    this.reason = reason;
    this.flag = flag;
  }

  /** Why the request was refused, with the flag that would allow it, without the host. */
  public String reason() {
    return reason + (flag == null ? "" : " (allowed by " + flag + ")");
  }

  /** The host the refused request was for. */
  public String host() {
    return host;
  }

  /** The operator flag that would allow the request, or null when none does. */
  public String flag() {
    return flag;
  }
}
