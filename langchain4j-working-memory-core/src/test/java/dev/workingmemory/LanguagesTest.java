package dev.workingmemory;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.memory.ChatMemory;
import dev.workingmemory.crystal.MemoryHit;
import dev.workingmemory.dream.AutoNote;
import dev.workingmemory.dream.SalienceLayer;
import dev.workingmemory.entity.Entity;
import dev.workingmemory.internal.CharsPerTokenEstimator;
import dev.workingmemory.slots.SessionActivation;
import dev.workingmemory.slots.SessionExtractor;
import dev.workingmemory.slots.SessionSlots;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The conversations of {@code src/test/resources/languages} (eight languages other than English, written blind; see
 * its README) through a default {@link WorkingMemoryProvider}: prints what each layer shows, per language (the
 * entities after each tool result against the labels, salience, session, the block, each labelled search's rank and
 * tokens), and asserts what must hold in any language: no session item and no coding evidence, nothing the session
 * extractor finds on its own, and searches within the 600-token budget by the estimate.
 */
class LanguagesTest {

    /** One message of a conversation with its labels: the entities it should list, the searches that should find it. */
    record Case(String name, ChatMessage message, List<String> entities, List<String> finds) {
    }

    private static Map<String, List<Case>> conversations;

    @BeforeAll
    static void load() throws IOException, URISyntaxException {
        conversations = new LinkedHashMap<>();
        Path dir = Paths.get(LanguagesTest.class.getResource("/languages").toURI());
        try (Stream<Path> files = Files.list(dir)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".cases")).sorted().toList()) {
                String name = file.getFileName().toString().replace(".cases", "");
                conversations.put(name, parse(name, Files.readString(file, StandardCharsets.UTF_8)));
            }
        }
    }

    static List<Case> parse(String file, String content) {
        List<Case> parsed = new ArrayList<>();
        String[] chunks = ("\n" + content).split("\n### ");
        for (String chunk : Arrays.copyOfRange(chunks, 1, chunks.length)) {
            int separator = chunk.indexOf("\n---\n");
            List<String> header = chunk.substring(0, separator).lines().toList();
            String text = chunk.substring(separator + 5).stripTrailing();
            String name = file + "/" + header.get(0).strip();
            String source = null;
            List<String> entities = new ArrayList<>();
            List<String> finds = new ArrayList<>();
            for (String line : header.subList(1, header.size())) {
                if (line.startsWith("source: ")) {
                    source = line.substring(8).strip();
                } else if (line.startsWith("entity: ")) {
                    entities.add(line.substring(8).strip());
                } else if (line.startsWith("find: ")) {
                    finds.add(line.substring(6).strip());
                } else if (!line.equals("expect: none") && !line.isBlank()) {
                    throw new IllegalStateException(name + ": unknown header line " + line);
                }
            }
            ChatMessage message = source.startsWith("tool ")
                    ? ToolExecutionResultMessage.from("call", source.substring(5).strip(), text)
                    : source.equals("user") ? UserMessage.from(text) : AiMessage.from(text);
            parsed.add(new Case(name, message, entities, finds));
        }
        return parsed;
    }

    static String textOf(ChatMessage message) {
        if (message instanceof UserMessage user) {
            return user.singleText();
        }
        return message instanceof AiMessage ai ? ai.text() : ((ToolExecutionResultMessage) message).text();
    }

    @Test
    void should_report_each_layer_per_language() {
        SessionExtractor extractor = SessionExtractor.defaults();
        SessionActivation evidence = SessionActivation.codingEvidence();
        List<String> wrong = new ArrayList<>();
        int entitiesFound = 0;
        int entitiesLabelled = 0;
        int firstHits = 0;
        int searches = 0;
        Map<String, int[]> tally = new LinkedHashMap<>(); // per language: searches, first, found @10, hits @10, tokens @10
        Map<String, List<String>> byLanguage = new LinkedHashMap<>();
        conversations.keySet().forEach(name -> byLanguage.computeIfAbsent(name.substring(0, 2), l -> new ArrayList<>()).add(name));
        for (Map.Entry<String, List<String>> language : byLanguage.entrySet()) {
            String user = language.getKey();
            System.out.println("==== " + user);
            try (WorkingMemoryProvider provider = WorkingMemoryProvider.builder().maxCachedMemories(1).build()) {
                for (String name : language.getValue()) {
                    MemoryKey id = MemoryKey.of(user, name);
                    ChatMemory chat = provider.get(id);
                    chat.add(SystemMessage.from("You are a helpful assistant."));
                    int call = 0;
                    for (Case c : conversations.get(name)) {
                        ChatMessage message = c.message();
                        List<String> alone = extractor.extract(message).stream().map(Object::toString).toList();
                        if (!alone.isEmpty()) {
                            wrong.add("extractor alone " + c.name() + " -> " + alone);
                        }
                        if (evidence.isEvidence(message)) {
                            wrong.add("coding evidence " + c.name());
                        }
                        if (message instanceof ToolExecutionResultMessage result) {
                            ToolExecutionRequest request = ToolExecutionRequest.builder().id("call_" + call++)
                                    .name(result.toolName()).arguments("{}").build();
                            chat.add(AiMessage.from(request));
                            message = ToolExecutionResultMessage.from(request, result.text());
                        }
                        chat.add(message);
                        chat.messages();
                        WorkingMemory memory = provider.memory(id);
                        if (message instanceof ToolExecutionResultMessage) {
                            List<Entity> entities = memory.entities();
                            for (String expected : c.entities()) {
                                boolean found = entities.stream().anyMatch(e -> e.name().contains(expected) || e.id().contains(expected));
                                System.out.println("  entity " + (found ? "found  " : "MISSING") + " " + expected);
                                entitiesLabelled++;
                                entitiesFound += found ? 1 : 0;
                            }
                            System.out.println("  entities after " + c.name() + ": " + entities);
                        }
                        String text = textOf(c.message());
                        System.out.println("  tokens " + c.name() + ": chars=" + text.length() + " est="
                                + CharsPerTokenEstimator.INSTANCE.estimateTokenCountInText(text));
                    }
                    provider.consolidate();
                    WorkingMemory memory = provider.memory(id);
                    System.out.println("  " + name + " salience: " + memory.layer(SalienceLayer.class).map(SalienceLayer::levels).orElse(null)
                            + " auto-notes: " + memory.notes().notes().stream().filter(n -> n.tags().contains(AutoNote.TAG))
                            .map(n -> n.text()).toList());
                    System.out.println("  " + name + " session: " + memory.sessionSlots().slotNames().stream()
                            .flatMap(s -> memory.sessionSlots().items(s).stream()).toList()
                            + " pool " + memory.sessionSlots().items(SessionSlots.POOL) + " active " + memory.activeLayers());
                    System.out.println("  " + name + " block:\n" + memory.render());
                    if (memory.render().contains("<session>") || memory.sessionSlots().slotNames().stream()
                            .anyMatch(slot -> !memory.sessionSlots().items(slot).isEmpty())) {
                        wrong.add("session items in " + name);
                    }
                }
                // unloads the last one: a pause; looked up at each use, as the saver may load another meanwhile (a
                // cache of one) and an evicted instance refuses use
                MemoryKey later = MemoryKey.of(user, "later");
                provider.memory(later);
                awaitIndexed(provider);
                for (String name : language.getValue()) {
                    for (Case c : conversations.get(name)) {
                        for (String query : c.finds()) {
                            List<MemoryHit> hits = provider.memory(later).search(query, 5);
                            int rank = -1;
                            for (int i = 0; i < hits.size(); i++) {
                                if (holds(hits.get(i).text(), textOf(c.message()))) {
                                    rank = i + 1;
                                    break;
                                }
                            }
                            searches++;
                            firstHits += rank == 1 ? 1 : 0;
                            int tokens = hits.stream().mapToInt(MemoryHit::tokens).sum();
                            int estimated = hits.stream().mapToInt(h -> CharsPerTokenEstimator.INSTANCE
                                    .estimateTokenCountInText(h.text())).sum();
                            if (tokens > 600 || estimated > 600) {
                                wrong.add("search '" + query + "' returned " + estimated + " tokens");
                            }
                            // ten hits, as a benchmark's @10 asks: how many the budget holds, and whether the message is among them
                            List<MemoryHit> ten = provider.memory(later).search(query, 10);
                            boolean inTen = ten.stream().anyMatch(hit -> holds(hit.text(), textOf(c.message())));
                            tally.computeIfAbsent(user, l -> new int[5]);
                            int[] t = tally.get(user);
                            t[0]++;
                            t[1] += rank == 1 ? 1 : 0;
                            t[2] += inTen ? 1 : 0;
                            t[3] += ten.size();
                            t[4] += ten.stream().mapToInt(MemoryHit::tokens).sum();
                            System.out.println("  search '" + query + "' -> " + (rank < 0 ? "NOT FOUND" : "rank " + rank)
                                    + " of " + hits.size() + " tokens " + hits.stream().mapToInt(MemoryHit::tokens).sum()
                                    + "; @10 " + (inTen ? "found" : "NOT FOUND") + " in " + ten.size() + " hits, tokens "
                                    + ten.stream().mapToInt(MemoryHit::tokens).sum()
                                    + (rank != 1 && !hits.isEmpty() ? " first: " + hits.get(0).text().replace('\n', ' ') : ""));
                        }
                    }
                }
            }
        }
        System.out.println("Languages: entities labelled " + entitiesLabelled + ", found " + entitiesFound
                + "; searches " + searches + ", the message first " + firstHits);
        tally.forEach((language, t) -> System.out.printf(java.util.Locale.ROOT,
                "Languages %s: searches %d, the message first %d, found @10 %d, hits @10 %.1f a query, tokens @10 %.0f%n",
                language, t[0], t[1], t[2], (double) t[3] / t[0], (double) t[4] / t[0]));
        wrong.forEach(line -> System.out.println("  WRONG " + line));
        assertThat(wrong).isEmpty();
    }

    /** Whether a hit (a passage, or a window of one) holds a piece of the message {@code target}. */
    static boolean holds(String hit, String target) {
        for (int from = 0; from + 10 <= target.length(); from += 5) {
            if (hit.contains(target.substring(from, from + 10))) {
                return true;
            }
        }
        return false;
    }

    static void awaitIndexed(WorkingMemoryProvider provider) {
        var store = provider.crystalStore().orElseThrow();
        long deadline = System.currentTimeMillis() + 60_000;
        while (store.pendingCount() > 0 && System.currentTimeMillis() < deadline) {
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
