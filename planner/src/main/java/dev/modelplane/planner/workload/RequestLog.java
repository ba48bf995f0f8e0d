package dev.modelplane.planner.workload;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * A request log in JSON lines: one object per line with an arrival time and token counts. See docs/planner.md for
 * the field names accepted.
 */
final class RequestLog {
  private static final ObjectMapper JSON = new JsonMapper();
  /** The names an arrival time goes by. */
  static final List<String> TIME = List.of("timestamp", "time", "arrival_time", "created");
  private static final List<String> PROMPT = List.of("prompt_tokens", "input_tokens", "num_input_tokens",
      "usage.prompt_tokens", "usage.input_tokens");
  private static final List<String> OUTPUT = List.of("output_tokens", "completion_tokens", "num_output_tokens",
      "usage.completion_tokens", "usage.output_tokens");

  private RequestLog() {
  }

  /** One line of the log. */
  private record Line(int number, double seconds, int prompt, int output, String group, int prefix, int priority,
      String adapter, String model, String fairnessId) {
  }

  /** The log's requests, sorted by arrival, times relative to the earliest. */
  static RecordedRequests read(Path file) throws IOException {
    List<Line> lines = new ArrayList<>();
    try (BufferedReader reader = Files.newBufferedReader(file)) {
      int number = 0;
      for (String text = reader.readLine(); text != null; text = reader.readLine()) {
        number++;
        if (!text.isBlank()) {
          lines.add(line(file, number, text));
        }
      }
    }
    if (lines.size() < 2) {
      throw new IllegalArgumentException(file + ": a request log needs at least two requests, to have a rate; found "
          + lines.size());
    }
    lines.sort(Comparator.comparingDouble(Line::seconds));
    double start = lines.get(0).seconds();
    if (lines.get(lines.size() - 1).seconds() == start) {
      throw new IllegalArgumentException(file + ": every request has the same time, so the log has no rate");
    }
    return columns(lines, start);
  }

  private static RecordedRequests columns(List<Line> lines, double start) {
    int n = lines.size();
    Map<String, Integer> groups = new HashMap<>();
    String base = baseModel(lines);
    long[] arrivals = new long[n];
    int[] prompt = new int[n];
    int[] output = new int[n];
    int[] group = new int[n];
    int[] prefix = new int[n];
    int[] priority = new int[n];
    String[] adapter = new String[n];
    String[] flow = new String[n];
    for (int i = 0; i < n; i++) {
      Line l = lines.get(i);
      arrivals[i] = Math.round((l.seconds() - start) * 1e9);
      prompt[i] = l.prompt();
      output[i] = l.output();
      group[i] = l.group() == null || l.prefix() == 0 ? -1 : groups.computeIfAbsent(l.group(), g -> groups.size());
      prefix[i] = group[i] < 0 ? 0 : l.prefix();
      priority[i] = l.priority();
      adapter[i] = l.adapter() != null ? l.adapter() : l.model() != null && !l.model().equals(base) ? l.model() : null;
      flow[i] = l.fairnessId() == null ? RequestMix.DEFAULT_FLOW : l.fairnessId();
    }
    return new RecordedRequests(arrivals, prompt, output, group, prefix, priority, adapter, flow);
  }

  /** The model most lines name: the base model; the others are LoRA adapters. */
  private static String baseModel(List<Line> lines) {
    Map<String, Long> counts = new HashMap<>();
    lines.stream().map(Line::model).filter(m -> m != null).forEach(m -> counts.merge(m, 1L, Long::sum));
    return counts.entrySet().stream().max(Map.Entry.<String, Long>comparingByValue()
        .thenComparing(Map.Entry.comparingByKey(Comparator.reverseOrder()))).map(Map.Entry::getKey).orElse(null);
  }

  private static Line line(Path file, int number, String text) {
    Function<String, IllegalArgumentException> bad = m -> new IllegalArgumentException(file + ": line " + number
        + ": " + m);
    JsonNode node;
    try {
      node = JSON.readTree(text);
    } catch (JsonProcessingException e) {
      String why = e.getOriginalMessage().lines().findFirst().orElse("");
      throw bad.apply("not JSON: " + (why.contains(" (start marker") ? why.substring(0, why.indexOf(" (start marker"))
          : why));
    }
    if (node == null || !node.isObject()) {
      throw bad.apply("expected a JSON object, one request per line");
    }
    Field time = first(node, TIME);
    if (time == null) {
      throw bad.apply("no arrival time (" + String.join(", ", TIME) + ")");
    }
    double seconds = seconds(time, bad);
    int prompt = tokens(node, PROMPT, 1, bad);
    int output = Math.max(1, tokens(node, OUTPUT, 0, bad)); // an empty completion still takes a decode step
    Field group = first(node, List.of("prefix_group"));
    Field prefixField = first(node, List.of("prefix_tokens"));
    int prefix = prefixField == null ? 0 : whole(prefixField, 0, bad);
    if (prefix > 0 && group == null) {
      throw bad.apply("prefix_tokens needs prefix_group, the prefix it counts");
    }
    if (prefix > prompt) {
      throw bad.apply("prefix_tokens (" + prefix + ") is more than the prompt's " + prompt + " tokens");
    }
    Field priority = first(node, List.of("priority"));
    return new Line(number, seconds, prompt, output, group == null ? null : group.value().asText(),
        Math.min(prefix, prompt - 1), priority == null ? 0 : whole(priority, Integer.MIN_VALUE, bad),
        text(node, "adapter"), text(node, "model"), text(first(node, List.of("fairness_id", "tenant"))));
  }

  /** A field found under one of several names; {@code usage.x} looks inside {@code usage}. */
  private record Field(String name, JsonNode value) {
  }

  private static Field first(JsonNode node, List<String> names) {
    for (String name : names) {
      JsonNode value = name.contains(".") ? node.path(name.substring(0, name.indexOf('.')))
          .get(name.substring(name.indexOf('.') + 1)) : node.get(name);
      if (value != null && !value.isNull()) {
        return new Field(name, value);
      }
    }
    return null;
  }

  private static double seconds(Field time, Function<String, IllegalArgumentException> bad) {
    JsonNode v = time.value();
    if (v.isNumber() && Double.isFinite(v.doubleValue())) {
      return v.doubleValue();
    }
    if (v.isTextual()) {
      String s = v.asText().strip();
      try {
        return Double.parseDouble(s);
      } catch (NumberFormatException notSeconds) {
        try {
          OffsetDateTime t = OffsetDateTime.parse(s.replace(' ', 'T'));
          return t.toEpochSecond() + t.getNano() / 1e9;
        } catch (DateTimeParseException notRfc3339) {
          // fall through to the error
        }
      }
    }
    return failTime(time, bad);
  }

  private static double failTime(Field time, Function<String, IllegalArgumentException> bad) {
    throw bad.apply(time.name() + " must be seconds or an RFC 3339 time (2026-11-28T21:00:00.250Z), got "
        + time.value());
  }

  private static int tokens(JsonNode node, List<String> names, int min,
      Function<String, IllegalArgumentException> bad) {
    Field field = first(node, names);
    if (field == null) {
      throw bad.apply("no " + (names == PROMPT ? "prompt" : "output") + " token count ("
          + String.join(", ", names) + ")");
    }
    return whole(field, min, bad);
  }

  private static int whole(Field field, int min, Function<String, IllegalArgumentException> bad) {
    JsonNode v = field.value();
    if (!v.isIntegralNumber() || !v.canConvertToInt() || v.intValue() < min) {
      throw bad.apply(field.name() + " must be a whole number" + (min > Integer.MIN_VALUE ? " >= " + min : "")
          + ", got " + v);
    }
    return v.intValue();
  }

  private static String text(JsonNode node, String name) {
    return text(first(node, List.of(name)));
  }

  private static String text(Field field) {
    return field == null || field.value().asText().isBlank() ? null : field.value().asText();
  }
}
