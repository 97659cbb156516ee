package dev.workingmemory.inspector;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.Content;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.workingmemory.MemoryKey;
import dev.workingmemory.SentRequest;
import dev.workingmemory.WorkingMemory;
import dev.workingmemory.WorkingMemoryProvider;
import dev.workingmemory.blocks.CoreBlock;
import dev.workingmemory.blocks.CoreMemory;
import dev.workingmemory.context.ContextPressure;
import dev.workingmemory.context.PressureSample;
import dev.workingmemory.context.PressureStats;
import dev.workingmemory.context.ToolOutputCache;
import dev.workingmemory.crystal.Crystal;
import dev.workingmemory.crystal.CrystalKind;
import dev.workingmemory.crystal.CrystalStore;
import dev.workingmemory.crystal.HitScores;
import dev.workingmemory.crystal.MemoryHit;
import dev.workingmemory.crystal.Provenance;
import dev.workingmemory.dream.DreamLogEntry;
import dev.workingmemory.entity.Entity;
import dev.workingmemory.entity.EntityMemory;
import dev.workingmemory.internal.MessageText;
import dev.workingmemory.layer.MemoryLayer;
import dev.workingmemory.notes.Note;
import dev.workingmemory.render.LayerShare;
import dev.workingmemory.scratchpad.Scratchpad;
import dev.workingmemory.slots.PoolItem;
import dev.workingmemory.slots.SessionSlots;
import dev.workingmemory.store.MessageLog;
import dev.workingmemory.store.MessageLogEntry;
import dev.workingmemory.store.StoredDocument;
import dev.workingmemory.store.WorkingMemoryStore;

import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What the inspector's JSON API answers, read from a {@link WorkingMemoryProvider} without changing it: the provider's
 * store for users, threads, notes and cached tool outputs; its dream engine for states and dreams; its crystal store;
 * and the memories that are loaded now for what lives only in them (the request as last sent, pressure, core memory,
 * scratchpad, entities, session slots). A memory that is not loaded is never loaded here: a memory loaded under a
 * guessed id would read and save its messages under that id. Its stored state is shown instead.
 *
 * <p>Thread-safe (the provider is).
 */
final class MemoryViews {

    /** The most users one listing returns. */
    static final int MAX_RESOURCES = 200;
    /** The most crystals a listing reads (the most important first). */
    static final int MAX_CRYSTALS = 1_000;
    /** The longest tool output sent to the page; the rest is cut and said so. */
    static final int MAX_TOOL_OUTPUT_CHARS = 1_000_000;

    private final WorkingMemoryProvider provider;
    private final ObjectMapper json;

    MemoryViews(WorkingMemoryProvider provider, ObjectMapper json) {
        this.provider = provider;
        this.json = json;
    }

    private WorkingMemoryStore store() {
        return provider.store();
    }

    /** The resources whose id contains {@code filter} (ignoring case), sorted, with their threads and a summary. */
    ObjectNode resources(String filter) {
        Map<String, TreeSet<String>> threads = new TreeMap<>();
        for (String storeKey : store().keys()) {
            MemoryKey.resourceOfStoreKey(storeKey).ifPresent(resource -> {
                TreeSet<String> names = threads.computeIfAbsent(resource, r -> new TreeSet<>());
                MemoryKey.ofThreadStoreKey(storeKey).ifPresent(key -> names.add(key.thread()));
            });
        }
        List<MemoryKey> loaded = provider.loadedKeys();
        loaded.forEach(key -> threads.computeIfAbsent(key.resource(), r -> new TreeSet<>()).add(key.thread()));
        String wanted = filter == null ? "" : filter.strip().toLowerCase(Locale.ROOT);
        List<String> matching = threads.keySet().stream()
                .filter(resource -> resource.toLowerCase(Locale.ROOT).contains(wanted)).toList();
        ObjectNode answer = json.createObjectNode().put("total", matching.size())
                .put("truncated", matching.size() > MAX_RESOURCES);
        ArrayNode array = answer.putArray("resources");
        for (String resource : matching.subList(0, Math.min(MAX_RESOURCES, matching.size()))) {
            MemoryKey key = MemoryKey.of(resource);
            ObjectNode node = array.addObject().put("resource", resource)
                    .put("pendingNotes", store().notes(key.resourceStoreKey()).size());
            ArrayNode names = node.putArray("threads");
            for (String thread : threads.get(resource)) {
                names.addObject().put("thread", thread).put("loaded", loaded.contains(MemoryKey.of(resource, thread)));
            }
            provider.crystalStore().ifPresent(crystals -> node.put("crystals", crystals.count(key.crystalScope())));
            List<DreamLogEntry> dreams = provider.dreamLog(key);
            if (!dreams.isEmpty()) {
                DreamLogEntry last = dreams.get(dreams.size() - 1);
                node.putObject("lastDream").put("time", last.report().started().toString())
                        .put("committed", last.report().committed()).put("rolledBack", last.rolledBack().isPresent());
            }
        }
        return answer;
    }

    /** What the resource keeps for all its threads: state document, notes, crystals by kind, dreams. */
    ObjectNode resource(String resource) {
        MemoryKey key = MemoryKey.of(resource);
        ObjectNode node = json.createObjectNode().put("resource", resource)
                .put("state", provider.dreamState(key).orElse(null));
        ArrayNode pending = node.putArray("pendingNotes");
        for (String line : store().notes(key.resourceStoreKey())) {
            Optional<Note> note = Note.parse(line);
            if (note.isPresent()) {
                note(pending.addObject(), note.get().time(), note.get().importance(), note.get().tags(),
                        note.get().text());
            } else {
                pending.addObject().put("text", line).put("unreadable", true);
            }
        }
        Optional<CrystalStore> crystals = provider.crystalStore();
        if (crystals.isPresent()) {
            List<Crystal> shown = crystals.get().recent(key.crystalScope(), Instant.EPOCH, MAX_CRYSTALS);
            ObjectNode summary = node.putObject("crystals").put("count", crystals.get().count(key.crystalScope()))
                    .put("read", shown.size());
            ObjectNode byKind = summary.putObject("byKind");
            for (CrystalKind kind : CrystalKind.values()) {
                byKind.put(kind.textName(), shown.stream().filter(crystal -> crystal.kind() == kind).count());
            }
            ArrayNode archived = node.putArray("archivedNotes");
            shown.stream().filter(crystal -> crystal.kind() == CrystalKind.ARCHIVED_NOTE)
                    .sorted(Comparator.comparing(Crystal::time).reversed())
                    .forEach(crystal -> note(archived.addObject(), crystal.time(), crystal.importance(), crystal.tags(),
                            crystal.text()));
        }
        node.set("dreams", DreamViews.dreams(provider.dreamLog(key), provider.dreamHistory(key)));
        return node;
    }

    /**
     * Where the text came from ({@code user}, {@code model}, {@code tool}, {@code dream}), each source once in the
     * order of its first line: a reader sees at a glance whether a hit or crystal holds a tool's words (data, never an
     * instruction; see {@link Provenance}).
     */
    private static void provenance(ObjectNode node, CrystalKind kind, String text) {
        ArrayNode from = node.putArray("from");
        Provenance.lines(kind, text).stream().map(line -> line.provenance().name().toLowerCase(Locale.ROOT))
                .distinct().forEach(from::add);
    }

    private static void note(ObjectNode node, Instant time, double importance, List<String> tags, String text) {
        node.put("time", time.toString()).put("importance", importance).put("text", text);
        ArrayNode array = node.putArray("tags");
        tags.forEach(array::add);
    }

    /** The crystals of the resource, the most important first (at most {@code limit}), of one kind or all. */
    ObjectNode crystals(String resource, String kind, int limit) {
        CrystalStore crystals = provider.crystalStore().orElseThrow(() -> new IllegalArgumentException(
                "This provider keeps no long-term memory (it was built withoutCrystals())"));
        CrystalKind wanted = kind == null || kind.isBlank() ? null : CrystalKind.fromTextName(kind);
        String scope = MemoryKey.of(resource).crystalScope();
        ObjectNode node = json.createObjectNode().put("resource", resource).put("count", crystals.count(scope));
        ArrayNode array = node.putArray("crystals");
        crystals.recent(scope, Instant.EPOCH, MAX_CRYSTALS).stream()
                .filter(crystal -> wanted == null || crystal.kind() == wanted).limit(limit)
                .forEach(crystal -> {
                    ObjectNode item = array.addObject().put("id", crystal.id()).put("kind", crystal.kind().textName());
                    note(item, crystal.time(), crystal.importance(), crystal.tags(), crystal.text());
                    provenance(item, crystal.kind(), crystal.text());
                });
        return node;
    }

    /** {@code memory_search} for the resource: each hit with the scores that ranked it. */
    ObjectNode search(String resource, String query, int limit) {
        List<MemoryHit> hits = provider.search(MemoryKey.of(resource), query, limit);
        ObjectNode node = json.createObjectNode().put("resource", resource).put("query", query);
        ArrayNode array = node.putArray("hits");
        int rank = 1;
        for (MemoryHit hit : hits) {
            ObjectNode item = array.addObject().put("rank", rank++).put("id", hit.id()).put("kind", hit.kind().textName())
                    .put("time", hit.time().toString()).put("tokens", hit.tokens()).put("text", hit.text());
            provenance(item, hit.kind(), hit.text());
            HitScores scores = hit.scores();
            ObjectNode parts = item.putObject("scores");
            score(parts, "keyword", scores.keyword());
            score(parts, "context", scores.context());
            score(parts, "keywordStandardized", scores.keywordStandardized());
            score(parts, "vector", scores.vector());
            score(parts, "vectorStandardized", scores.vectorStandardized());
            parts.put("fused", hit.score());
            if (hit.earlierThan() != null) {
                item.put("earlierThan", hit.earlierThan());
            }
        }
        return node;
    }

    /** A part of a hit's score; JSON has no NaN, so a part the search did not measure for the hit is null. */
    private static void score(ObjectNode node, String name, double value) {
        if (Double.isNaN(value)) {
            node.putNull(name);
        } else {
            node.put(name, value);
        }
    }

    /** One thread: what its loaded memory holds, or its stored state, and its cached tool outputs. */
    ObjectNode thread(String resource, String thread) {
        MemoryKey key = MemoryKey.of(resource, thread);
        ObjectNode node = json.createObjectNode().put("resource", resource).put("thread", thread);
        Optional<WorkingMemory> memory = provider.loadedMemory(key);
        boolean shown = false;
        if (memory.isPresent()) {
            try {
                live(node, memory.get());
                shown = true;
            } catch (IllegalStateException e) {
                node.removeAll(); // evicted or forgotten meanwhile: show what is stored
                node.put("resource", resource).put("thread", thread);
            }
        }
        node.put("loaded", shown);
        // messages since its last pause: its window is not in the long-term memory yet
        node.put("pausePending", provider.threadsAwaitingPause(resource).contains(thread));
        if (!shown) {
            ObjectNode stored = node.putObject("stored");
            store().load(key.threadStoreKey()).ifPresent(snapshot -> stored.put("version", snapshot.version())
                    .put("document", pretty(snapshot.document())));
        }
        messageLog(node.putObject("messageLog"), store().messages(key.threadStoreKey(), 0));
        ArrayNode outputs = node.putArray("toolOutputs");
        store().documents(key.threadStoreKey()).stream().filter(document -> ToolOutputCache.isEntryName(document.name()))
                .sorted(Comparator.comparing(StoredDocument::name).reversed())
                .forEach(document -> outputs.addObject().put("name", document.name()).put("bytes", document.bytes()));
        return node;
    }

    /**
     * The thread's message log as stored: what a restart or another instance loads the window from (the window and
     * the last messages that left it). Empty when the provider keeps the window in a {@code ChatMemoryStore}.
     */
    private static void messageLog(ObjectNode node, MessageLog log) {
        long messages = log.entries().stream().filter(entry -> entry.entry() instanceof MessageLogEntry.Added added
                && !(added.message() instanceof SystemMessage)).count();
        node.put("lastSeq", log.lastSeq()).put("firstSeq", log.entries().isEmpty() ? 0 : log.entries().get(0).seq())
                .put("entries", log.entries().size()).put("messages", messages);
    }

    private String pretty(String document) {
        try {
            return json.writerWithDefaultPrettyPrinter().writeValueAsString(json.readTree(document));
        } catch (Exception e) {
            return document;
        }
    }

    private void live(ObjectNode node, WorkingMemory memory) {
        // which layers act now: a layer waiting for its evidence (the session of a memory that has seen no coding
        // agent's output) is listed as not active
        List<String> active = memory.activeLayers();
        ArrayNode tiers = node.putArray("tiers");
        for (MemoryLayer layer : memory.layers()) {
            tiers.addObject().put("layer", layer.name()).put("active", active.contains(layer.name()));
        }
        memory.lastRequest().ifPresent(request -> request(node.putObject("request"), request));
        // the tools the model listener saw: the only ones the memory's texts name to the model
        memory.toolsOffered().ifPresent(tools -> tools.stream().sorted().forEach(node.putArray("toolsOffered")::add));
        memory.layer(ContextPressure.class).ifPresent(pressure -> pressure(node.putObject("pressure"), pressure));
        memory.layer(CoreMemory.class).ifPresent(core -> {
            ArrayNode blocks = node.putArray("coreMemory");
            for (CoreBlock block : core.blocks()) {
                blocks.addObject().put("name", block.name()).put("content", block.content()).put("chars", block.chars())
                        .put("maxChars", block.maxChars());
            }
        });
        memory.layer(Scratchpad.class).ifPresent(scratchpad -> node.putObject("scratchpad")
                .put("text", scratchpad.text()).put("structured", scratchpad.isStructured())
                .put("scope", scratchpad.scope().name().toLowerCase(Locale.ROOT)));
        memory.layer(EntityMemory.class).ifPresent(entities -> {
            ArrayNode array = node.putArray("entities");
            for (Entity entity : entities.entities()) {
                array.addObject().put("id", entity.id()).put("name", entity.name()).put("type", entity.type());
            }
        });
        memory.layer(SessionSlots.class).ifPresent(session -> {
            ObjectNode slots = node.putObject("session");
            ArrayNode array = slots.putArray("slots");
            for (String slot : session.slotNames()) {
                ObjectNode item = array.addObject().put("slot", slot).put("limit", session.limit(slot));
                ArrayNode items = item.putArray("items");
                session.items(slot).forEach(items::add);
            }
            ArrayNode pool = slots.putArray("pool");
            for (PoolItem item : session.pool()) {
                pool.addObject().put("content", item.content()).put("age", item.age()).put("mentions", item.mentions())
                        .put("score", item.score());
            }
        });
    }

    private static void request(ObjectNode node, SentRequest request) {
        node.put("time", request.time().toString()).put("systemMessage", request.systemMessage())
                .put("block", request.block()).put("blockChars", request.block().length())
                .put("blockBudget", request.blockBudget()).put("tokens", request.tokens());
        ArrayNode layers = node.putArray("layers");
        for (LayerShare share : request.layers()) {
            layers.addObject().put("layer", share.layer()).put("priority", share.priority())
                    .put("minChars", share.minChars()).put("maxChars", share.maxChars())
                    .put("neededChars", share.neededChars()).put("usedChars", share.usedChars())
                    .put("charsCut", share.charsCut());
        }
        ArrayNode messages = node.putArray("messages");
        for (ChatMessage message : request.messages()) {
            ObjectNode item = messages.addObject().put("type", message.type().name().toLowerCase(Locale.ROOT));
            if (message instanceof UserMessage user) {
                item.put("text", withOtherParts(MessageText.of(user), user.contents()));
            } else if (message instanceof AiMessage ai) {
                item.put("text", ai.text());
                if (ai.hasToolExecutionRequests()) {
                    ArrayNode calls = item.putArray("toolCalls");
                    ai.toolExecutionRequests().forEach(call -> calls.addObject().put("id", call.id())
                            .put("name", call.name()).put("arguments", call.arguments()));
                }
            } else if (message instanceof ToolExecutionResultMessage result) {
                item.put("id", result.id()).put("toolName", result.toolName())
                        .put("text", withOtherParts(MessageText.of(result), result.contents()));
            } else if (message instanceof SystemMessage system) {
                item.put("text", system.text());
            } else {
                item.put("text", message.toString());
            }
        }
    }

    /** The text parts, and how many parts are not text (an image, audio, a file): the page shows no image data. */
    private static String withOtherParts(String text, List<Content> contents) {
        int others = MessageText.partsOtherThanText(contents);
        return others == 0 ? text : text + (text.isEmpty() ? "" : "\n") + "[" + others + " part"
                + (others == 1 ? "" : "s") + " other than text]";
    }

    private static void pressure(ObjectNode node, ContextPressure pressure) {
        PressureStats stats = pressure.stats();
        node.put("level", stats.level().textName()).put("percent", stats.percent()).put("tokens", stats.tokens())
                .put("sentTokens", stats.sentTokens()).put("contextWindow", stats.contextWindow())
                .put("interventions", stats.interventions())
                .put("moderateAt", Math.round(pressure.config().moderateThreshold() * 100))
                .put("highAt", Math.round(pressure.config().highThreshold() * 100));
        ArrayNode history = node.putArray("history");
        for (PressureSample sample : pressure.history()) {
            history.addObject().put("time", sample.time().toString()).put("level", sample.level().textName())
                    .put("percent", sample.percent()).put("tokens", sample.tokens())
                    .put("sentTokens", sample.sentTokens()).put("intervened", sample.intervened())
                    .put("outputsShortened", sample.outputsShortened()).put("turnsEvicted", sample.turnsEvicted());
        }
    }

    /** The full text of a cached tool output of the thread, cut at {@value #MAX_TOOL_OUTPUT_CHARS} characters. */
    Optional<ObjectNode> toolOutput(String resource, String thread, String name) {
        MemoryKey key = MemoryKey.of(resource, thread);
        if (!ToolOutputCache.isEntryName(name)) {
            return Optional.empty();
        }
        Optional<String> text;
        try {
            text = provider.loadedMemory(key).flatMap(memory -> memory.layer(ContextPressure.class))
                    .flatMap(pressure -> pressure.toolOutput(name)); // also one not written to the store yet
        } catch (IllegalStateException e) {
            text = Optional.empty(); // evicted meanwhile
        }
        if (text.isEmpty()) {
            text = store().getDocument(key.threadStoreKey(), name);
        }
        return text.map(full -> json.createObjectNode().put("name", name).put("chars", full.length())
                .put("truncated", full.length() > MAX_TOOL_OUTPUT_CHARS)
                .put("text", full.length() > MAX_TOOL_OUTPUT_CHARS ? full.substring(0, MAX_TOOL_OUTPUT_CHARS) : full));
    }
}
