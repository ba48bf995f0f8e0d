package dev.modelplane.common.logging;

import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.LayoutBase;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * One JSON object per event and line, with the key=value layout's fields:
 * {@code {"ts":"…","level":"INFO","logger":"dev.modelplane.router.proxy.GatewayServer","msg":"gateway listening",
 * "host":"0.0.0.0","port":8080}}. A {@code word key=value…} message becomes {@code "event":"word"} and one string
 * field per pair; key-value values keep their JSON type (numbers, booleans); an exception adds {@code error} and
 * {@code stack}. A field whose name is taken gets a suffix ({@code error_2}) rather than a duplicate key.
 */
public final class JsonLayout extends LayoutBase<ILoggingEvent> {
  private static final JsonFactory JSON = new JsonFactory();

  @Override
  public String doLayout(ILoggingEvent event) {
    return format(LogLine.of(event));
  }

  static String format(LogLine line) {
    StringWriter out = new StringWriter(256);
    try (JsonGenerator g = JSON.createGenerator(out)) {
      Set<String> used = new HashSet<>();
      g.writeStartObject();
      field(g, used, "ts", line.time().toString());
      field(g, used, "level", line.level());
      field(g, used, "logger", line.logger());
      if (line.structured() != null) {
        field(g, used, "event", line.structured().event());
        for (Map.Entry<String, String> pair : line.structured().pairs()) {
          field(g, used, pair.getKey(), pair.getValue());
        }
      } else {
        field(g, used, "msg", line.text());
      }
      for (Map.Entry<String, Object> f : line.fields()) {
        field(g, used, f.getKey(), f.getValue());
      }
      if (line.error() != null) {
        field(g, used, "error", line.error());
        field(g, used, "stack", line.stack());
      }
      g.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException(e); // a StringWriter does not fail
    }
    return out.append('\n').toString();
  }

  private static void field(JsonGenerator g, Set<String> used, String key, Object value) throws IOException {
    String name = key;
    for (int n = 2; !used.add(name); n++) {
      name = key + "_" + n;
    }
    g.writeFieldName(name);
    switch (value) {
      case null -> g.writeNull();
      case Boolean b -> g.writeBoolean(b);
      case Integer i -> g.writeNumber(i);
      case Long l -> g.writeNumber(l);
      case Short s -> g.writeNumber(s);
      case BigInteger b -> g.writeNumber(b);
      case BigDecimal b -> g.writeNumber(b);
      case Double d when Double.isFinite(d) -> g.writeNumber(d);
      case Float f when Float.isFinite(f) -> g.writeNumber(f);
      default -> g.writeString(String.valueOf(value));
    }
  }
}
