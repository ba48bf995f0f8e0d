package dev.modelplane.planner.workload;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads a workload file (YAML, or JSON when the name ends in {@code .json}) into a {@link SyntheticWorkload}.
 * docs/planner.md describes the schema; {@link #TOP} lists its fields.
 */
final class WorkloadFile {
  static final Set<String> TOP = Set.of("arrival", "duration", "requests", "prompt", "output", "scenario", "prefix",
      "priorities", "lora", "tenants", "seed");
  private static final Set<String> ARRIVAL = Set.of("process", "rate", "cv");
  private static final Set<String> PREFIX = Set.of("groups", "tokens", "share", "popularity", "exponent");
  private static final Set<String> LORA = Set.of("share", "adapters");

  private WorkloadFile() {
  }

  /** The workload in {@code file}; {@code rate} and {@code duration}, when not null, replace the file's. */
  static SyntheticWorkload read(Path file, Double rate, Duration duration, long seed) {
    String name = file.toString();
    String text;
    try {
      text = Files.readString(file);
    } catch (IOException e) {
      throw new IllegalArgumentException(name + ": cannot read the workload file (" + e.getMessage() + ")", e);
    }
    ObjectMapper mapper = name.endsWith(".json") ? new JsonMapper() : new YAMLMapper();
    JsonNode tree;
    Map<String, Integer> lines;
    try {
      lines = fieldLines(mapper, text, name);
      tree = mapper.readTree(text);
    } catch (JsonProcessingException e) {
      int line = e.getLocation() == null ? -1 : e.getLocation().getLineNr();
      throw new IllegalArgumentException(name + (line > 0 ? ": line " + line : "") + ": not valid "
          + (mapper instanceof YAMLMapper ? "YAML" : "JSON") + ": " + e.getOriginalMessage().lines().findFirst()
          .orElse(""), e);
    } catch (IOException e) {
      throw new IllegalArgumentException(name + ": cannot read the workload file (" + e.getMessage() + ")", e);
    }
    if (tree == null || tree.isMissingNode() || tree.isNull()) {
      throw new IllegalArgumentException(name + ": the workload file is empty");
    }
    return workload(new FileNode(name, "", tree, lines), rate, duration, seed);
  }

  private static SyntheticWorkload workload(FileNode top, Double rate, Duration duration, long seed) {
    if (duration != null && (duration.isNegative() || duration.isZero())) {
      throw new IllegalArgumentException("the duration must be more than 0 seconds, got " + duration);
    }
    top.onlyFields(TOP);
    ArrivalProcess arrival = arrival(top.field("arrival"), rate, top);
    Double seconds = duration != null ? Double.valueOf(duration.toNanos() / 1e9)
        : top.has("duration") ? Double.valueOf(seconds(top.field("duration"))) : null;
    Long requests = duration != null || !top.has("requests") ? null : top.field("requests").whole(1);
    if (seconds == null && requests == null) {
      throw top.fail("give duration (e.g. duration: 10m) or requests (e.g. requests: 5000)");
    }
    if (seconds != null && !(seconds > 0)) {
      throw top.field("duration").problem("must be more than 0 seconds, got " + top.field("duration").shown());
    }
    LengthDistribution prompt;
    LengthDistribution output;
    PrefixGroups prefix = top.has("prefix") ? prefix(top.field("prefix")) : null;
    if (top.has("scenario")) {
      for (String conflicting : List.of("prompt", "output")) {
        if (top.has(conflicting)) {
          throw top.field(conflicting).fail("give either scenario or prompt and output, not both");
        }
      }
      TrafficScenario scenario = parseScenario(top.field("scenario"));
      prompt = scenario.prompt();
      output = scenario.output();
      if (scenario.sharedPrefixTokens() > 0) {
        if (prefix != null) {
          throw top.field("prefix").fail("scenario " + scenario + " already has a shared prefix; drop prefix");
        }
        prefix = new PrefixGroups(1, new LengthDistribution.Fixed(scenario.sharedPrefixTokens()), 1, 0);
      }
    } else {
      for (String required : List.of("prompt", "output")) {
        if (!top.has(required)) {
          throw top.fail("give " + required + " (e.g. " + required + ": N(480,240)) or a scenario");
        }
      }
      prompt = length(top.field("prompt"));
      output = length(top.field("output"));
    }
    RequestMix mix = mix(top);
    long chosenSeed = top.has("seed") ? top.field("seed").whole(Long.MIN_VALUE) : seed;
    return new SyntheticWorkload(arrival, seconds, requests, prompt, output, prefix, mix, chosenSeed);
  }

  private static ArrivalProcess arrival(FileNode node, Double rate, FileNode top) {
    if (node == null) {
      if (rate == null) {
        throw top.fail("give arrival (e.g. arrival: {process: poisson, rate: 50}) or a rate");
      }
      return new ArrivalProcess.Poisson(rate);
    }
    node.onlyFields(ARRIVAL);
    double r;
    if (rate != null) {
      r = rate;
    } else if (node.has("rate")) {
      r = node.field("rate").number();
      if (!(r > 0) || Double.isInfinite(r)) {
        throw node.field("rate").problem("must be more than 0 requests/s, got " + node.field("rate").shown());
      }
    } else {
      throw node.fail("arrival needs a rate (requests/s), e.g. rate: 50");
    }
    String process = node.has("process") ? node.field("process").text() : "poisson";
    if (node.has("cv") && !process.equals("gamma")) {
      throw node.field("cv").fail("arrival.cv (burstiness) needs process: gamma");
    }
    return switch (process) {
      case "poisson" -> new ArrivalProcess.Poisson(r);
      case "constant" -> new ArrivalProcess.Constant(r);
      case "gamma" -> {
        FileNode cv = node.field("cv");
        if (cv == null) {
          throw node.field("process").fail("arrival process gamma needs cv (burstiness, e.g. cv: 2)");
        }
        double value = cv.number();
        if (!(value > 0) || Double.isInfinite(value)) {
          throw cv.problem("must be more than 0, got " + cv.shown());
        }
        yield new ArrivalProcess.Gamma(r, value);
      }
      default -> throw node.field("process").problem("must be poisson, constant or gamma, got "
          + node.field("process").shown());
    };
  }

  private static TrafficScenario parseScenario(FileNode node) {
    try {
      return TrafficScenario.parse(node.text());
    } catch (IllegalArgumentException e) {
      throw node.fail(e.getMessage());
    }
  }

  /** A length: a number, a compact form like {@code N(480,240)}, or a mapping. */
  static LengthDistribution length(FileNode node) {
    try {
      if (node.node().isNumber()) {
        return new LengthDistribution.Fixed(node.count(1));
      }
      if (node.node().isTextual()) {
        return LengthDistribution.parse(node.text());
      }
      return LengthSpec.read(node);
    } catch (IllegalArgumentException e) {
      if (e.getMessage().startsWith(node.file() + ":")) {
        throw e;
      }
      throw node.fail(node.path() + ": " + e.getMessage());
    }
  }

  private static PrefixGroups prefix(FileNode node) {
    node.onlyFields(PREFIX);
    for (String required : List.of("groups", "tokens", "share")) {
      if (!node.has(required)) {
        throw node.fail("prefix needs " + required + " (e.g. prefix: {groups: 8, tokens: 1000, share: 0.6})");
      }
    }
    int groups = node.field("groups").count(1);
    LengthDistribution tokens = length(node.field("tokens"));
    double share = node.field("share").number(0, 1);
    String popularity = node.has("popularity") ? node.field("popularity").text() : "uniform";
    double exponent = switch (popularity) {
      case "uniform" -> {
        if (node.has("exponent")) {
          throw node.field("exponent").fail("prefix.exponent needs popularity: zipf");
        }
        yield 0;
      }
      case "zipf" -> node.has("exponent") ? node.field("exponent").number(0.01, 10) : 1;
      default -> throw node.field("popularity").problem("must be uniform or zipf, got "
          + node.field("popularity").shown());
    };
    return new PrefixGroups(groups, tokens, share, exponent);
  }

  private static RequestMix mix(FileNode top) {
    Map<Integer, Double> priorities = new LinkedHashMap<>();
    FileNode p = top.field("priorities");
    if (p != null) {
      if (!p.node().isObject() || p.node().isEmpty()) {
        throw p.problem("must map priorities to weights, e.g. {\"0\": 0.9, \"-1\": 0.1}");
      }
      for (String key : (Iterable<String>) p.node()::fieldNames) {
        FileNode weight = p.field(key);
        if (!key.strip().matches("-?\\d{1,9}")) {
          throw (weight == null ? p : weight).fail("priorities: \"" + key + "\" is not a whole-number priority");
        }
        if (weight == null || !(weight.number() > 0)) {
          throw (weight == null ? p : weight).fail("priorities." + key + " needs a weight > 0");
        }
        priorities.put(Integer.parseInt(key.strip()), weight.number());
      }
    }
    double loraShare = 0;
    List<String> adapters = List.of();
    FileNode lora = top.field("lora");
    if (lora != null) {
      lora.onlyFields(LORA);
      loraShare = lora.has("share") ? lora.field("share").number(0, 1) : 1;
      FileNode names = lora.field("adapters");
      if (names == null) {
        throw lora.fail("lora needs adapters: a list of names or a count");
      }
      adapters = names.node().isNumber() ? RequestMix.numbered("adapter", names.count(1)) : names(names);
    }
    FileNode t = top.field("tenants");
    List<String> tenants = t == null ? List.of(RequestMix.DEFAULT_FLOW)
        : t.node().isNumber() ? RequestMix.numbered("tenant", t.count(1)) : names(t);
    return new RequestMix(priorities, loraShare, adapters, tenants);
  }

  private static List<String> names(FileNode list) {
    List<String> names = list.items().stream().map(FileNode::text).toList();
    if (names.isEmpty() || names.stream().anyMatch(String::isBlank) || Set.copyOf(names).size() != names.size()) {
      throw list.problem("must be a count or a list of distinct, non-empty names");
    }
    return names;
  }

  private static double seconds(FileNode node) {
    if (node.node().isNumber()) {
      return node.number();
    }
    try {
      return parseDuration(node.text()).toNanos() / 1e9;
    } catch (IllegalArgumentException e) {
      throw node.problem("must be a duration like 90s, 10m, 1h or a number of seconds, got " + node.shown());
    }
  }

  /** {@code 90} or {@code 90s}, {@code 500ms}, {@code 10m}, {@code 1h}, {@code 1h30m}, or ISO-8601 {@code PT10M}. */
  static Duration parseDuration(String text) {
    String s = text.strip();
    if (s.matches("\\d+(\\.\\d+)?")) {
      return Duration.ofNanos(Math.round(Double.parseDouble(s) * 1e9));
    }
    if (s.matches("(\\d+(\\.\\d+)?(ms|s|m|h))+")) {
      Duration total = Duration.ZERO;
      var m = java.util.regex.Pattern.compile("(\\d+(?:\\.\\d+)?)(ms|s|m|h)").matcher(s);
      while (m.find()) {
        double value = Double.parseDouble(m.group(1));
        double nanosPerUnit = switch (m.group(2)) {
          case "ms" -> 1e6;
          case "s" -> 1e9;
          case "m" -> 60e9;
          default -> 3600e9;
        };
        total = total.plusNanos(Math.round(value * nanosPerUnit));
      }
      return total;
    }
    try {
      return Duration.parse(s);
    } catch (java.time.format.DateTimeParseException e) {
      throw new IllegalArgumentException("\"" + text + "\" is not a duration (e.g. 90s, 10m, 1h)", e);
    }
  }

  /** The line of every field and list item, by dotted path. */
  private static Map<String, Integer> fieldLines(ObjectMapper mapper, String text, String name) throws IOException {
    Map<String, Integer> lines = new HashMap<>();
    Deque<String> containers = new ArrayDeque<>(); // path of each open object or array
    Deque<Integer> indexes = new ArrayDeque<>(); // next item index of each open array, -1 for objects
    String field = null;
    try (JsonParser parser = mapper.createParser(text)) {
      for (JsonToken token = parser.nextToken(); token != null; token = parser.nextToken()) {
        int line = parser.currentTokenLocation().getLineNr();
        if (token == JsonToken.FIELD_NAME) {
          String parent = containers.isEmpty() ? "" : containers.peek();
          field = parent.isEmpty() ? parser.currentName() : parent + "." + parser.currentName();
          Integer first = lines.putIfAbsent(field, line);
          if (first != null) {
            throw new IllegalArgumentException(name + ": line " + line + ": duplicate field \"" + field
                + "\" (first on line " + first + ")");
          }
          continue;
        }
        if (token == JsonToken.END_OBJECT || token == JsonToken.END_ARRAY) {
          containers.pop();
          indexes.pop();
          continue;
        }
        String at = valuePath(containers, indexes, field);
        lines.putIfAbsent(at, line);
        if (token == JsonToken.START_OBJECT || token == JsonToken.START_ARRAY) {
          containers.push(at);
          indexes.push(token == JsonToken.START_ARRAY ? 0 : -1);
        }
      }
    }
    return lines;
  }

  /** The path of the value the parser is at, advancing the enclosing array's item index. */
  private static String valuePath(Deque<String> containers, Deque<Integer> indexes, String field) {
    if (containers.isEmpty()) {
      return "";
    }
    int index = indexes.peek();
    if (index < 0) {
      return field;
    }
    indexes.pop();
    indexes.push(index + 1);
    return containers.peek() + "[" + index + "]";
  }
}
