// The memory inspector's page. Every text that came from users, tools, models or files is put into the DOM as text
// (text nodes, textContent): this script never parses data as HTML. It reads the JSON API relative to its own address,
// so the page works at any mount point.
'use strict';

(function () {
    const SVG = 'http://www.w3.org/2000/svg';
    let info = {writable: false, tokenHeader: 'X-Inspector-Token'};
    let selected = {resource: null, thread: null};

    // ---- DOM helpers: children are nodes or strings (which become text nodes) ----------------------------------

    function el(tag, attributes, ...children) {
        const node = document.createElement(tag);
        for (const [name, value] of Object.entries(attributes || {})) {
            if (value === null || value === undefined || value === false) {
                continue;
            }
            if (name === 'onclick') {
                node.addEventListener('click', value);
            } else if (name === 'text') {
                node.textContent = String(value);
            } else {
                node.setAttribute(name, value === true ? '' : String(value));
            }
        }
        append(node, children);
        return node;
    }

    function append(node, children) {
        for (const child of children.flat()) {
            if (child === null || child === undefined || child === false) {
                continue;
            }
            node.appendChild(child instanceof Node ? child : document.createTextNode(String(child)));
        }
        return node;
    }

    function svg(tag, attributes) {
        const node = document.createElementNS(SVG, tag);
        for (const [name, value] of Object.entries(attributes || {})) {
            node.setAttribute(name, String(value));
        }
        return node;
    }

    function section(title, id, ...children) {
        return el('section', {id: id}, el('h2', {text: title}), ...children);
    }

    function table(headers, rows, attributes) {
        return el('table', attributes || {},
            el('thead', {}, el('tr', {}, headers.map(h => el('th', {class: h.num ? 'num' : null, text: h.label || h})))),
            el('tbody', {}, rows));
    }

    function time(text) {
        if (!text) {
            return '';
        }
        const date = new Date(text);
        return isNaN(date) ? text : date.toISOString().replace('T', ' ').replace(/\.\d+Z$/, 'Z');
    }

    function status(message) {
        const box = document.getElementById('status');
        box.textContent = message || '';
        if (message) {
            setTimeout(() => { if (box.textContent === message) box.textContent = ''; }, 8000);
        }
    }

    // ---- ids: addressed exactly, shown escaped -------------------------------------------------------------------

    // Percent-encoded UTF-8, an unpaired surrogate as the three bytes of its code point (%ED%A0%80 for U+D800), as the
    // API decodes it: a memory id may hold one, which encodeURIComponent refuses and URLSearchParams makes U+FFFD.
    function encodeText(text) {
        return String(text).replace(/[\uD800-\uDBFF][\uDC00-\uDFFF]|[\uD800-\uDFFF]|[^\uD800-\uDFFF]+/g, part => {
            if (part.length !== 1 || part < '\uD800' || part > '\uDFFF') {
                return encodeURIComponent(part);
            }
            const code = part.charCodeAt(0);
            const hex = byte => '%' + byte.toString(16).toUpperCase();
            return '%ED' + hex(0x80 | (code >> 6) & 0x3F) + hex(0x80 | code & 0x3F);
        });
    }

    // The inverse of encodeText.
    function decodeText(text) {
        return text.replace(/\+/g, ' ').split(/(%ED%[AB][0-9A-F]%[89AB][0-9A-F])/i).map((part, i) => {
            if (i % 2 === 1) {
                return String.fromCharCode(0xD000 | (parseInt(part.substring(4, 6), 16) & 0x3F) << 6
                    | parseInt(part.substring(7, 9), 16) & 0x3F);
            }
            try {
                return decodeURIComponent(part);
            } catch (e) {
                return part;
            }
        }).join('');
    }

    function queryString(parameters) {
        return Object.entries(parameters).map(([name, value]) => encodeText(name) + '=' + encodeText(value)).join('&');
    }

    // An id as the page shows it: controls, line breaks, bidi controls and unpaired surrogates as \uXXXX, so that an
    // id cannot hide a character, break its line or reorder what is shown around it.
    function shown(id) {
        return String(id).replace(/[\uD800-\uDBFF][\uDC00-\uDFFF]|[\x00-\x1F\x7F-\x9F\u202A-\u202E\u2066-\u2069\uD800-\uDFFF]/g,
            c => c.length === 2 ? c : '\\u' + c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0'));
    }

    // ---- the API ------------------------------------------------------------------------------------------------

    async function get(endpoint, parameters) {
        const query = queryString(parameters || {});
        const response = await fetch('api/' + endpoint + (query ? '?' + query : ''), {headers: {'Accept': 'application/json'}});
        const body = await response.json();
        if (!response.ok) {
            throw new Error(body.error || ('HTTP ' + response.status));
        }
        return body;
    }

    async function post(endpoint, resource) {
        const headers = {'Content-Type': 'application/json'};
        headers[info.tokenHeader] = document.getElementById('token').value;
        const response = await fetch('api/' + endpoint, {method: 'POST', headers: headers, body: JSON.stringify({resource: resource})});
        const body = await response.json();
        if (!response.ok) {
            throw new Error(body.error || ('HTTP ' + response.status));
        }
        return body;
    }

    // ---- the users ----------------------------------------------------------------------------------------------

    async function loadUsers() {
        const nav = document.getElementById('users');
        const filter = document.getElementById('filter').value;
        let answer;
        try {
            answer = await get('resources', filter ? {q: filter} : {});
        } catch (e) {
            nav.replaceChildren(el('p', {class: 'hint', text: 'Could not list the users: ' + e.message}));
            return;
        }
        const items = answer.resources.map(user => {
            const stats = [user.pendingNotes + ' pending notes'];
            if (user.crystals !== undefined) stats.push(user.crystals + ' crystals');
            if (user.lastDream) stats.push('last dream ' + time(user.lastDream.time) + ' '
                + (user.lastDream.rolledBack ? 'rolled back' : user.lastDream.committed ? 'committed' : 'not committed'));
            const threads = (user.threads.length ? user.threads : [{thread: 'default', loaded: false}]).map(t =>
                el('button', {
                    class: 'thread' + (user.resource === selected.resource && t.thread === selected.thread ? ' selected' : ''),
                    'data-resource': user.resource, 'data-thread': t.thread,
                    title: t.loaded ? 'loaded: live view' : 'not loaded: stored state',
                    onclick: () => select(user.resource, t.thread)
                }, 'thread ' + shown(t.thread) + (t.loaded ? ' ●' : '')));
            return el('div', {class: 'user'}, el('div', {class: 'id', text: shown(user.resource)}),
                el('div', {class: 'stats', text: stats.join(' · ')}), threads);
        });
        if (answer.truncated) {
            items.push(el('p', {class: 'hint', text: 'Showing ' + answer.resources.length + ' of ' + answer.total + ': search by id.'}));
        }
        if (!items.length) {
            items.push(el('p', {class: 'hint', text: filter ? 'No user id contains that.' : 'No memories yet.'}));
        }
        nav.replaceChildren(...items);
    }

    function select(resource, thread) {
        const hash = queryString({r: resource, t: thread});
        if (location.hash.substring(1) === hash) {
            show();
        } else {
            location.hash = hash;
        }
    }

    function fromHash() {
        const parameters = {};
        for (const pair of location.hash.substring(1).split('&')) {
            const equals = pair.indexOf('=');
            const name = decodeText(equals < 0 ? pair : pair.substring(0, equals));
            if (name && !(name in parameters)) {
                parameters[name] = decodeText(equals < 0 ? '' : pair.substring(equals + 1));
            }
        }
        return {resource: parameters.r === undefined ? null : parameters.r, thread: parameters.t || 'default'};
    }

    // ---- one user and thread ------------------------------------------------------------------------------------

    async function show() {
        selected = fromHash();
        const main = document.getElementById('main');
        if (selected.resource === null) {
            main.replaceChildren(el('p', {class: 'hint', text: 'Choose a user and a thread on the left.'}));
            return;
        }
        loadUsers();
        let resource, thread;
        try {
            [resource, thread] = await Promise.all([
                get('resource', {resource: selected.resource}),
                get('thread', {resource: selected.resource, thread: selected.thread})]);
        } catch (e) {
            main.replaceChildren(el('p', {class: 'hint', text: 'Could not read this memory: ' + e.message}));
            return;
        }
        main.replaceChildren(...[
            title(resource, thread),
            thread.loaded ? requestSection(thread) : storedSection(thread),
            thread.pressure ? pressureSection(thread.pressure) : null,
            stateSection(resource),
            dreamsSection(resource),
            notesSection(resource),
            thread.loaded ? layersSections(thread) : null,
            toolOutputsSection(thread),
            searchSection()].flat().filter(Boolean));
    }

    function title(resource, thread) {
        const actions = info.writable ? [
            el('button', {id: 'dream-now', onclick: () => act('dream', resource.resource, 'Dream now')}, 'Dream now'),
            el('button', {id: 'forget', class: 'danger', onclick: () => {
                if (confirm('Forget everything of this user? This cannot be undone.')) act('forget', resource.resource, 'Forget');
            }}, 'Forget this user')] : [];
        return el('div', {class: 'row'},
            el('h3', {class: 'title', id: 'resource-id'}, 'User ', el('span', {text: shown(resource.resource)}),
                ' · thread ', el('span', {text: shown(thread.thread)})),
            el('span', {class: 'meta', text: thread.loaded ? 'loaded: live view' : 'not loaded: stored state'}),
            thread.pausePending ? el('span', {class: 'meta', id: 'pause-pending',
                title: 'Messages since its last pause: the window becomes long-term memory, which the user\'s other'
                    + ' conversations search, when the conversation pauses',
                text: 'pause pending: not in long-term memory yet'}) : null,
            ...actions);
    }

    async function act(endpoint, resource, label) {
        try {
            const answer = await post(endpoint, resource);
            status(label + ': ' + (answer.message || answer.reason || (answer.forgotten ? 'done' : 'done')));
        } catch (e) {
            status(label + ' refused: ' + e.message);
        }
        show();
    }

    function requestSection(thread) {
        const request = thread.request;
        if (!request) {
            return section('Block as last sent', 'request',
                el('p', {class: 'hint', text: 'This memory has not been asked for a request since it was loaded.'}));
        }
        const level = thread.pressure ? thread.pressure.level : null;
        const rows = request.layers.map(layer => el('tr', {class: layer.charsCut > 0 ? 'cut-row' : null},
            el('td', {text: layer.layer}), el('td', {class: 'num', text: layer.priority}),
            el('td', {class: 'num', text: layer.minChars}), el('td', {class: 'num', text: layer.maxChars}),
            el('td', {class: 'num', text: layer.neededChars}), el('td', {class: 'num', text: layer.usedChars}),
            el('td', {class: 'num' + (layer.charsCut > 0 ? ' cut' : ''), text: layer.charsCut})));
        const messages = request.messages.map(message => el('li', {},
            el('strong', {text: message.type}), message.toolName ? ' ' + message.toolName : '', message.id ? ' (' + message.id + ')' : '',
            message.toolCalls ? ' calls ' + message.toolCalls.map(c => c.name + '(' + c.arguments + ')').join(', ') : '',
            message.text ? el('pre', {text: message.text}) : null));
        return section('Block as last sent', 'request',
            el('p', {class: 'meta'}, 'Sent ' + time(request.time) + ' · block ' + request.blockChars + ' of '
                + request.blockBudget + ' chars · request ≈ ' + request.tokens + ' tokens'
                + (thread.pressure ? ' of ' + thread.pressure.contextWindow : '')
                + (level ? ' · pressure ' : ''), level ? el('span', {class: 'level-' + level, text: level}) : null),
            el('p', {class: 'meta', id: 'tools-offered', text: thread.toolsOffered
                ? 'Tools offered with it (the memory names no other): ' + (thread.toolsOffered.join(', ') || 'none')
                : 'Tools offered with it: not seen by the provider\'s chatModelListener() (README, "Tools the model has")'}),
            el('pre', {id: 'block', text: request.block || '(every layer was empty: no block)'}),
            table(['layer', {label: 'priority', num: true}, {label: 'min', num: true}, {label: 'max', num: true},
                {label: 'needed', num: true}, {label: 'used', num: true}, {label: 'cut', num: true}], rows, {id: 'layers'}),
            el('details', {}, el('summary', {text: 'The system message as sent'}), el('pre', {text: request.systemMessage})),
            el('details', {}, el('summary', {text: 'The ' + request.messages.length + ' messages as sent after it'}),
                el('ol', {}, messages)));
    }

    function storedSection(thread) {
        return section('Stored state of this thread', 'stored',
            el('p', {class: 'hint', text: 'This memory is not loaded, so its last request and pressure are not known.'
                + ' The inspector does not load it (that would read its messages under a guessed id): this is its state as stored.'}),
            thread.stored && thread.stored.document ? el('pre', {text: thread.stored.document})
                : el('p', {class: 'hint', text: 'Nothing stored for this thread.'}));
    }

    function pressureSection(pressure) {
        const history = pressure.history;
        const width = 640, height = 130, pad = 6;
        const top = Math.max(100, ...history.map(s => s.percent));
        const x = i => pad + (history.length < 2 ? (width - 2 * pad) / 2 : i * (width - 2 * pad) / (history.length - 1));
        const y = p => height - pad - p * (height - 2 * pad) / top;
        const chart = svg('svg', {class: 'chart', id: 'pressure-chart', viewBox: '0 0 ' + width + ' ' + height,
            role: 'img', 'aria-label': 'Percent of the context window per request'});
        for (const mark of [pressure.moderateAt, pressure.highAt]) {
            chart.appendChild(svg('line', {class: 'mark', x1: 0, x2: width, y1: y(mark), y2: y(mark)}));
        }
        if (history.length > 1) {
            chart.appendChild(svg('polyline', {class: 'line', points: history.map((s, i) => x(i) + ',' + y(s.percent)).join(' ')}));
        }
        history.forEach((s, i) => {
            const point = svg('circle', {class: 'point-' + s.level, cx: x(i), cy: y(s.percent), r: 2.5});
            const tip = svg('title', {});
            tip.textContent = time(s.time) + ': ' + s.percent + '% (' + s.tokens + ' tokens, ' + s.sentTokens + ' sent)'
                + (s.intervened ? ', intervened: ' + s.outputsShortened + ' outputs shortened, ' + s.turnsEvicted + ' turns evicted' : '');
            point.appendChild(tip);
            chart.appendChild(point);
            if (s.intervened) {
                chart.appendChild(svg('circle', {class: 'intervention', cx: x(i), cy: y(s.percent), r: 6}));
            }
        });
        return section('Context pressure', 'pressure',
            el('p', {class: 'meta'}, 'Last request ', el('span', {class: 'level-' + pressure.level, text: pressure.level}),
                ' at ' + pressure.percent + '% (' + pressure.tokens + ' of ' + pressure.contextWindow + ' tokens, '
                + pressure.sentTokens + ' sent) · ' + pressure.interventions + ' interventions · dashed: '
                + pressure.moderateAt + '% and ' + pressure.highAt + '%, circled: an intervention'),
            history.length ? chart : el('p', {class: 'hint', text: 'No request measured since the memory was loaded.'}));
    }

    function stateSection(resource) {
        if (!resource.state) {
            return section('State document', 'state', el('p', {class: 'hint', text: 'No state document yet: no dream has committed one.'}));
        }
        const rendered = el('div', {class: 'state'});
        let list = null;
        for (const line of resource.state.split('\n')) {
            const heading = /^(#{1,6})\s+(.*)$/.exec(line);
            const item = /^\s*[-*+]\s+(.*)$/.exec(line);
            if (item) {
                if (!list) {
                    list = rendered.appendChild(el('ul'));
                }
                list.appendChild(el('li', {text: item[1]}));
                continue;
            }
            list = null;
            if (heading) {
                rendered.appendChild(el(heading[1].length === 1 ? 'h3' : 'h4', {text: heading[2]}));
            } else if (line.trim()) {
                rendered.appendChild(el('p', {text: line}));
            }
        }
        return section('State document', 'state', rendered,
            el('details', {}, el('summary', {text: 'MEMORY.md as stored'}), el('pre', {id: 'state-raw', text: resource.state})));
    }

    function dreamsSection(resource) {
        const dreams = resource.dreams.map(dream => {
            const checks = dream.guardChecks.map(check => el('tr', {class: 'guard ' + (check.passed ? 'passed' : 'failed')},
                el('td', {text: check.guard}), el('td', {text: check.passed ? 'passed' : 'FAILED'}), el('td', {text: check.detail})));
            const pointers = dream.pointers;
            const parts = [
                el('div', {class: 'row'}, el('strong', {text: time(dream.started)}),
                    el('span', {class: 'badge ' + dream.outcome.replace(' ', '-'), text: dream.outcome}),
                    el('span', {class: 'reason', text: dream.reason}),
                    dream.canRollBack && info.writable && dream.outcome === 'committed'
                        ? el('button', {class: 'rollback', onclick: () => act('rollback', resource.resource, 'Roll back')}, 'Roll back this dream')
                        : null),
                dream.durationMillis !== undefined ? el('p', {class: 'meta', text: dream.inputChars + ' chars in, ' + dream.outputChars
                    + ' chars out · ' + dream.notesConsumed + ' notes consumed' + (dream.notesDeferred ? ' (' + dream.notesDeferred + ' deferred)' : '')
                    + ' · ' + dream.crystalsRead + ' new crystals read · ' + (dream.tokensUsed !== undefined ? dream.tokensUsed + ' tokens · ' : '')
                    + dream.durationMillis + ' ms' + (dream.rolledBack ? ' · rolled back ' + time(dream.rolledBack) : '')}) : null,
                checks.length ? table(['guard', 'result', 'what it measured'], checks, {class: 'guards'})
                    : el('p', {class: 'meta', text: 'No guard judged this dream.'}),
                pointers ? el('p', {class: 'meta', text: 'Pointers ' + (pointers.checked ? 'kept ' + pointers.kept + ', repaired '
                    + pointers.repaired + ', dropped ' + pointers.dropped : 'not checked')}) : null,
                pointers && pointers.outcomes.length ? el('ul', {class: 'pointers'}, pointers.outcomes.map(p =>
                    el('li', {}, el('strong', {text: p.action}), ' ', el('code', {text: p.pointer}),
                        p.result && p.result !== p.pointer ? [' → ', el('code', {text: p.result})] : null,
                        el('span', {class: 'meta', text: ' ' + p.reason})))) : null,
                dream.consumedNotes && dream.consumedNotes.length ? el('details', {},
                    el('summary', {text: dream.consumedNotes.length + ' consumed notes'}),
                    el('pre', {class: 'consumed', text: dream.consumedNotes.join('\n')})) : null,
                dream.diff ? el('details', {open: dream === resource.dreams.find(d => d.diff)},
                    el('summary', {text: 'The state against the one before'}),
                    el('pre', {class: 'diff'}, dream.diff.map(line => el('span', {
                        class: line.op === '+' ? 'add' : line.op === '-' ? 'del' : 'same',
                        text: line.op + ' ' + line.text})))) : null];
            return el('article', {class: 'dream', 'data-outcome': dream.outcome}, parts);
        });
        return section('Dreams', 'dreams', dreams.length ? dreams : el('p', {class: 'hint', text: 'No dream yet.'}));
    }

    function noteRows(notes) {
        return notes.map(note => el('tr', {}, el('td', {text: time(note.time)}), el('td', {class: 'num', text: note.importance}),
            el('td', {text: (note.tags || []).join(', ')}), el('td', {class: 'note-text', text: note.text})));
    }

    function notesSection(resource) {
        const headers = ['time', {label: 'importance', num: true}, 'tags', 'note'];
        return section('Notes', 'notes',
            el('h4', {text: 'Pending (' + resource.pendingNotes.length + ')'}),
            resource.pendingNotes.length ? table(headers, noteRows(resource.pendingNotes), {id: 'pending-notes'})
                : el('p', {class: 'hint', text: 'No pending note.'}),
            resource.archivedNotes ? el('h4', {text: 'Archived (' + resource.archivedNotes.length + ')'}) : null,
            resource.archivedNotes && resource.archivedNotes.length ? table(headers, noteRows(resource.archivedNotes), {id: 'archived-notes'}) : null,
            resource.crystals ? el('p', {class: 'meta', text: resource.crystals.count + ' crystals: '
                + Object.entries(resource.crystals.byKind).filter(e => e[1] > 0).map(e => e[1] + ' ' + e[0]).join(', ')
                + (resource.crystals.read < resource.crystals.count ? ' (of the ' + resource.crystals.read + ' most important)' : '')}) : null);
    }

    function layersSections(thread) {
        const parts = [];
        if (thread.tiers) {
            parts.push(section('Tiers', 'tiers', el('p', {class: 'meta', text: 'Acting: '
                + (thread.tiers.filter(tier => tier.active).map(tier => tier.layer).join(', ') || 'none')
                + (thread.tiers.some(tier => !tier.active) ? ' · waiting for evidence: '
                    + thread.tiers.filter(tier => !tier.active).map(tier => tier.layer).join(', ') : '')})));
        }
        if (thread.coreMemory) {
            parts.push(section('Core memory', 'core-memory', thread.coreMemory.map(block => el('div', {},
                el('strong', {text: block.name}), el('span', {class: 'meta', text: ' ' + block.chars + '/' + block.maxChars + ' chars'}),
                el('pre', {text: block.content || '(empty)'})))));
        }
        if (thread.scratchpad) {
            parts.push(section('Scratchpad', 'scratchpad', el('p', {class: 'meta', text: (thread.scratchpad.structured ? 'JSON' : 'text')
                + ', ' + thread.scratchpad.scope + ' scope'}), el('pre', {text: thread.scratchpad.text || '(empty)'})));
        }
        if (thread.entities) {
            parts.push(section('Entities', 'entities', thread.entities.length
                ? table(['name', 'type', 'id'], thread.entities.map(entity => el('tr', {},
                    el('td', {class: 'entity-name', text: entity.name}), el('td', {text: entity.type}), el('td', {text: entity.id}))))
                : el('p', {class: 'hint', text: 'No entity tracked.'})));
        }
        if (thread.session) {
            parts.push(section('Session slots', 'session',
                table(['slot', 'items'], thread.session.slots.map(slot => el('tr', {}, el('td', {text: slot.slot + ' (' + slot.items.length + '/' + slot.limit + ')'}),
                    el('td', {}, slot.items.length ? el('ul', {}, slot.items.map(item => el('li', {text: item}))) : '—')))),
                thread.session.pool.length ? el('h4', {text: 'Pool'}) : null,
                thread.session.pool.length ? table(['item', {label: 'age', num: true}, {label: 'mentions', num: true}, {label: 'score', num: true}],
                    thread.session.pool.map(item => el('tr', {}, el('td', {text: item.content}), el('td', {class: 'num', text: item.age}),
                        el('td', {class: 'num', text: item.mentions}), el('td', {class: 'num', text: item.score.toFixed(3)})))) : null));
        }
        return parts;
    }

    function toolOutputsSection(thread) {
        const view = el('pre', {id: 'tool-output', hidden: true});
        const rows = thread.toolOutputs.map(output => el('tr', {}, el('td', {text: output.name}),
            el('td', {class: 'num', text: output.bytes}),
            el('td', {}, el('button', {class: 'open-output', onclick: async () => {
                try {
                    const answer = await get('tool-output', {resource: selected.resource, thread: selected.thread, name: output.name});
                    view.textContent = answer.text + (answer.truncated ? '\n[… cut at ' + answer.text.length + ' of ' + answer.chars + ' chars]' : '');
                    view.hidden = false;
                } catch (e) {
                    status('Could not open ' + output.name + ': ' + e.message);
                }
            }}, 'Open'))));
        return section('Cached tool outputs', 'tool-outputs', rows.length
            ? table(['entry', {label: 'bytes', num: true}, ''], rows) : el('p', {class: 'hint', text: 'No pruned tool output cached.'}), view);
    }

    function searchSection() {
        const input = el('input', {id: 'search-q', type: 'search', placeholder: 'What the model would search for', size: 40});
        const results = el('div', {id: 'hits'});
        const score = value => value === undefined || value === null ? '—' : Number(value).toFixed(4);
        const run = async () => {
            try {
                const answer = await get('search', {resource: selected.resource, q: input.value, limit: 10});
                results.replaceChildren(answer.hits.length ? table(['#', 'kind', 'from', 'time', {label: 'keyword', num: true},
                    {label: 'vector', num: true}, {label: 'context', num: true}, {label: 'fused', num: true}, 'text'],
                    answer.hits.map(hit => el('tr', {class: 'hit'}, el('td', {class: 'num', text: hit.rank}), el('td', {text: hit.kind}),
                        el('td', {class: 'hit-from', text: (hit.from || []).join(', ')}), el('td', {text: time(hit.time)}), el('td', {class: 'num score-keyword', text: score(hit.scores.keyword)}),
                        el('td', {class: 'num score-vector', text: score(hit.scores.vector)}),
                        el('td', {class: 'num score-context', text: score(hit.scores.context)}),
                        el('td', {class: 'num score-fused', text: score(hit.scores.fused)}),
                        el('td', {}, hit.earlierThan ? el('p', {class: 'meta hit-earlier', text: 'Earlier value than ' + hit.earlierThan}) : null,
                            el('pre', {class: 'hit-text', text: hit.text}))))) : el('p', {class: 'hint', text: 'No hit.'}));
            } catch (e) {
                results.replaceChildren(el('p', {class: 'hint', text: e.message}));
            }
        };
        input.addEventListener('keydown', event => { if (event.key === 'Enter') run(); });
        return section('memory_search', 'search',
            el('div', {class: 'row'}, input, el('button', {id: 'search-go', onclick: run}, 'Search')),
            el('p', {class: 'meta', text: 'Runs memory_search for this user, as the model would: each hit with where its words came from (a tool\'s are data, never an instruction) and the scores that ranked it: BM25 of its text (keyword) and of its neighbours (context), the cosine similarity of its vector, and the weighted sum of their standardized values (fused); — where the hit was not among that list\'s candidates.'}),
            results);
    }

    // ---- start --------------------------------------------------------------------------------------------------

    async function start() {
        try {
            info = await get('info');
        } catch (e) {
            status('The inspector API does not answer: ' + e.message);
        }
        document.getElementById('token-box').hidden = !info.writable;
        let typing;
        document.getElementById('filter').addEventListener('input', () => {
            clearTimeout(typing);
            typing = setTimeout(loadUsers, 200);
        });
        window.addEventListener('hashchange', show);
        await loadUsers();
        await show();
        document.body.setAttribute('data-ready', 'true');
    }

    start();
})();
