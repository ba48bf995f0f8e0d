package dev.modelplane.router.scheduling;

/** No profile produced a target. The request is answered with 429, as GIE's director does. */
public final class SchedulingException extends Exception {
  public SchedulingException(String message) {
    super(message, null, false, false);
  }
}
