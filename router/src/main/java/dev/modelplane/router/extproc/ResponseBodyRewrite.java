package dev.modelplane.router.extproc;

import dev.modelplane.router.metrics.RouterMetrics;
import dev.modelplane.router.request.RoutingDecision;
import io.envoyproxy.envoy.service.ext_proc.v3.ProcessingResponse;
import java.io.ByteArrayOutputStream;
import java.util.Arrays;
import java.util.List;

/**
 * A response body on its way back through Envoy, with the model name rewritten back to the one the client asked for
 * when the request went on under another: a stream's chunks are rewritten as they come; a non-streamed body is held
 * whole and rewritten at its end — up to the body cap, past which what was held and the rest pass on unparsed; and a
 * body that needs no rewrite passes on as it comes.
 */
final class ResponseBodyRewrite {
  private final RoutingDecision decision;
  private final long maxBodyBytes;
  private final RouterMetrics metrics;
  private boolean streaming;
  /** Passed on without the model-name rewrite: none is needed, or the body outgrew the cap. */
  private boolean unparsed;
  private ByteArrayOutputStream held = new ByteArrayOutputStream();

  /** A body held until its end unless {@link #headers} says otherwise; {@code decision} is null when none was made. */
  ResponseBodyRewrite(RoutingDecision decision, long maxBodyBytes, RouterMetrics metrics) {
    this.decision = decision;
    this.maxBodyBytes = maxBodyBytes;
    this.metrics = metrics;
  }

  /** The response headers came; {@code stream}: the body is a stream. */
  void headers(boolean stream) {
    streaming = stream;
    if (!streaming && !rewriteNeeded()) {
      streaming = true; // nothing to rewrite, so nothing to buffer: chunks go out as they come
      unparsed = true;
    }
  }

  /** What carries {@code chunk} on ({@code end}: the body's last); nothing while the body is held. */
  List<ProcessingResponse> body(byte[] chunk, boolean end) {
    if (streaming) {
      return ExtProcMessages.streamedBody(unparsed ? chunk : rewrite(chunk), end, false);
    }
    if ((long) held.size() + chunk.length > maxBodyBytes) {
      // Too large to buffer for the model-name rewrite: what was held goes out as it is, and so does the rest.
      metrics.extProcStreams.inc("response_unbuffered");
      streaming = true;
      unparsed = true;
      byte[] before = held.toByteArray();
      held.reset();
      held = null;
      byte[] out = Arrays.copyOf(before, before.length + chunk.length);
      System.arraycopy(chunk, 0, out, before.length, chunk.length);
      return ExtProcMessages.streamedBody(out, end, false);
    }
    held.writeBytes(chunk);
    return end ? ExtProcMessages.streamedBody(rewrite(held.toByteArray()), true, false) : List.of();
  }

  /** The response trailers came: what is still held goes on before them. */
  List<ProcessingResponse> trailers() {
    if (streaming || held == null || held.size() == 0) {
      return List.of();
    }
    List<ProcessingResponse> out = ExtProcMessages.streamedBody(rewrite(held.toByteArray()), false, false);
    held.reset();
    return out;
  }

  /** Whether responses carry a model name to rewrite back: the request was sent on under another name. */
  private boolean rewriteNeeded() {
    if (decision == null) {
      return false;
    }
    String target = decision.request().targetModel();
    String incoming = decision.request().incomingModel();
    return target != null && incoming != null && !target.equals(incoming);
  }

  private byte[] rewrite(byte[] chunk) {
    if (decision == null) {
      return chunk;
    }
    return ModelNameRewriter.rewrite(chunk, decision.request().targetModel(), decision.request().incomingModel());
  }
}
