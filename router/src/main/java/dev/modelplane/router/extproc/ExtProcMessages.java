package dev.modelplane.router.extproc;

import com.google.protobuf.ByteString;
import com.google.protobuf.Struct;
import com.google.protobuf.Value;
import io.envoyproxy.envoy.config.core.v3.HeaderValue;
import io.envoyproxy.envoy.config.core.v3.HeaderValueOption;
import io.envoyproxy.envoy.service.ext_proc.v3.BodyMutation;
import io.envoyproxy.envoy.service.ext_proc.v3.BodyResponse;
import io.envoyproxy.envoy.service.ext_proc.v3.CommonResponse;
import io.envoyproxy.envoy.service.ext_proc.v3.HeaderMutation;
import io.envoyproxy.envoy.service.ext_proc.v3.HeadersResponse;
import io.envoyproxy.envoy.service.ext_proc.v3.ImmediateResponse;
import io.envoyproxy.envoy.service.ext_proc.v3.ProcessingResponse;
import io.envoyproxy.envoy.service.ext_proc.v3.StreamedBodyResponse;
import io.envoyproxy.envoy.service.ext_proc.v3.TrailersResponse;
import io.envoyproxy.envoy.type.v3.HttpStatus;
import io.envoyproxy.envoy.type.v3.StatusCode;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/** Builders for the ext_proc responses the picker sends. */
public final class ExtProcMessages {
  private ExtProcMessages() {
  }

  /** A header the proxy sets, replacing any value the request already has. */
  public static HeaderValueOption setHeader(String name, String value) {
    return HeaderValueOption.newBuilder()
        .setHeader(HeaderValue.newBuilder().setKey(name).setRawValue(ByteString.copyFromUtf8(value)))
        .setAppendAction(HeaderValueOption.HeaderAppendAction.OVERWRITE_IF_EXISTS_OR_ADD)
        .build();
  }

  /** {@code envoy.lb: {x-gateway-destination-endpoint: <destination>}}. */
  public static Struct destinationMetadata(String destination) {
    Struct inner = Struct.newBuilder().putFields(EppProtocol.DESTINATION_ENDPOINT_KEY,
        Value.newBuilder().setStringValue(destination).build()).build();
    return Struct.newBuilder().putFields(EppProtocol.DESTINATION_ENDPOINT_NAMESPACE,
        Value.newBuilder().setStructValue(inner).build()).build();
  }

  /** A header mutation setting {@code set} and removing {@code remove}. */
  public static HeaderMutation headerMutation(Map<String, String> set, Collection<String> remove) {
    HeaderMutation.Builder m = HeaderMutation.newBuilder();
    set.forEach((k, v) -> m.addSetHeaders(setHeader(k, v)));
    m.addAllRemoveHeaders(remove);
    return m.build();
  }

  /** The request-headers response carrying the routing decision. */
  public static ProcessingResponse requestHeadersResponse(HeaderMutation mutation, String destination) {
    return ProcessingResponse.newBuilder()
        .setRequestHeaders(HeadersResponse.newBuilder().setResponse(CommonResponse.newBuilder()
            .setClearRouteCache(true)
            .setHeaderMutation(mutation)))
        .setDynamicMetadata(destinationMetadata(destination))
        .build();
  }

  /** A plain CONTINUE to request headers (BUFFERED mode, where the decision rides on the body response). */
  public static ProcessingResponse continueRequestHeaders() {
    return ProcessingResponse.newBuilder()
        .setRequestHeaders(HeadersResponse.newBuilder().setResponse(CommonResponse.getDefaultInstance()))
        .build();
  }

  /**
   * The body as streamed body mutations of at most {@value EppProtocol#BODY_BYTE_LIMIT} bytes; the last carries
   * {@code end_of_stream} when {@code endOfStream}. An empty body still yields one (empty) chunk.
   */
  public static List<ProcessingResponse> streamedBody(byte[] body, boolean endOfStream, boolean request) {
    List<ProcessingResponse> out = new ArrayList<>();
    int offset = 0;
    do {
      int len = Math.min(body.length - offset, EppProtocol.BODY_BYTE_LIMIT);
      boolean last = offset + len >= body.length;
      CommonResponse common = CommonResponse.newBuilder().setBodyMutation(BodyMutation.newBuilder()
          .setStreamedResponse(StreamedBodyResponse.newBuilder()
              .setBody(ByteString.copyFrom(body, offset, len))
              .setEndOfStream(endOfStream && last))).build();
      BodyResponse br = BodyResponse.newBuilder().setResponse(common).build();
      out.add(request ? ProcessingResponse.newBuilder().setRequestBody(br).build()
          : ProcessingResponse.newBuilder().setResponseBody(br).build());
      offset += len;
    } while (offset < body.length);
    return out;
  }

  /** BUFFERED mode: one body response replacing the body and carrying the routing headers. */
  public static ProcessingResponse bufferedRequestBody(byte[] body, boolean replaceBody, HeaderMutation mutation,
      String destination) {
    CommonResponse.Builder common = CommonResponse.newBuilder().setClearRouteCache(true).setHeaderMutation(mutation);
    if (replaceBody) {
      common.setStatus(CommonResponse.ResponseStatus.CONTINUE_AND_REPLACE)
          .setBodyMutation(BodyMutation.newBuilder().setBody(ByteString.copyFrom(body)));
    }
    return ProcessingResponse.newBuilder()
        .setRequestBody(BodyResponse.newBuilder().setResponse(common))
        .setDynamicMetadata(destinationMetadata(destination))
        .build();
  }

  public static ProcessingResponse responseHeaders(Map<String, String> set) {
    return ProcessingResponse.newBuilder()
        .setResponseHeaders(HeadersResponse.newBuilder().setResponse(CommonResponse.newBuilder()
            .setHeaderMutation(headerMutation(set, List.of()))))
        .build();
  }

  public static ProcessingResponse requestTrailers() {
    return ProcessingResponse.newBuilder().setRequestTrailers(TrailersResponse.getDefaultInstance()).build();
  }

  public static ProcessingResponse responseTrailers() {
    return ProcessingResponse.newBuilder().setResponseTrailers(TrailersResponse.getDefaultInstance()).build();
  }

  /** A response Envoy sends to the client directly, skipping the upstream. */
  public static ProcessingResponse immediate(int httpStatus, String contentType, String body) {
    return immediate(httpStatus, contentType, body, 0);
  }

  /** An immediate response; {@code retryAfterSeconds > 0} adds {@code Retry-After}. */
  public static ProcessingResponse immediate(int httpStatus, String contentType, String body, int retryAfterSeconds) {
    StatusCode code = StatusCode.forNumber(httpStatus);
    HeaderMutation.Builder headers = HeaderMutation.newBuilder().addSetHeaders(setHeader("content-type", contentType));
    if (retryAfterSeconds > 0) {
      headers.addSetHeaders(setHeader("retry-after", String.valueOf(retryAfterSeconds)));
    }
    return ProcessingResponse.newBuilder()
        .setImmediateResponse(ImmediateResponse.newBuilder()
            .setStatus(HttpStatus.newBuilder().setCode(code == null ? StatusCode.InternalServerError : code))
            .setHeaders(headers)
            .setBody(ByteString.copyFrom(body, StandardCharsets.UTF_8)))
        .build();
  }
}
