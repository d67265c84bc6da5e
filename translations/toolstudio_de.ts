<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de_DE">
<context>
    <name>AnswerDialog</name>
    <message>
        <source>Answer Pending Call</source>
        <translation>Wartenden Aufruf beantworten</translation>
    </message>
    <message>
        <source>Later</source>
        <translation>Später</translation>
    </message>
    <message>
        <source>Answer %1</source>
        <translation>%1 beantworten</translation>
    </message>
    <message>
        <source>Close this window; the call keeps waiting (Pending Calls dock)</source>
        <translation>Dieses Fenster schließen; der Aufruf wartet weiter (Dock „Wartende Aufrufe“)</translation>
    </message>
</context>
<context>
    <name>AnswerPane</name>
    <message>
        <source>Any JSON value, e.g. &quot;https://example.org/report.pdf&quot; or {&quot;url&quot;: &quot;…&quot;}</source>
        <translation>Ein beliebiger JSON-Wert, z. B. &quot;https://example.org/report.pdf&quot; oder {&quot;url&quot;: &quot;…&quot;}</translation>
    </message>
    <message>
        <source>&amp;Result (JSON):</source>
        <translation>&amp;Ergebnis (JSON):</translation>
    </message>
    <message>
        <source>Send Result</source>
        <translation>Ergebnis senden</translation>
    </message>
    <message>
        <source>Send the value above as the tool&apos;s result (Ctrl+Return)</source>
        <translation>Den Wert oben als Ergebnis des Werkzeugs senden (Strg+Eingabe)</translation>
    </message>
    <message>
        <source>Or answer with an error</source>
        <translation>Oder mit einem Fehler antworten</translation>
    </message>
    <message>
        <source>What went wrong, as the script will see it</source>
        <translation>Was schiefging – so, wie das Skript es sehen wird</translation>
    </message>
    <message>
        <source>Retryable (the step may try again)</source>
        <translation>Wiederholbar (der Schritt darf es erneut versuchen)</translation>
    </message>
    <message>
        <source>Send Error</source>
        <translation>Fehler senden</translation>
    </message>
    <message>
        <source>Send the message as the tool&apos;s error (Ctrl+Return in this box)</source>
        <translation>Die Meldung als Fehler des Werkzeugs senden (Strg+Eingabe in diesem Feld)</translation>
    </message>
    <message>
        <source>Message:</source>
        <translation>Meldung:</translation>
    </message>
    <message>
        <source>Arguments:</source>
        <translation>Argumente:</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; is waiting for an answer — attempt %2 of %3&lt;br&gt;&lt;small&gt;Call %4, step #%5&lt;/small&gt;</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; wartet auf eine Antwort – Versuch %2 von %3&lt;br&gt;&lt;small&gt;Aufruf %4, Schritt #%5&lt;/small&gt;</translation>
    </message>
    <message>
        <source>Select a waiting call to answer it.</source>
        <translation>Einen wartenden Aufruf auswählen, um ihn zu beantworten.</translation>
    </message>
    <message>
        <source>&amp;Result (from the tool&apos;s output schema):</source>
        <translation>&amp;Ergebnis (aus dem Ausgabeschema des Tools):</translation>
    </message>
    <message>
        <source>Not valid JSON: %1</source>
        <translation>Kein gültiges JSON: %1</translation>
    </message>
    <message>
        <source>Enter the result as JSON, e.g. &quot;done&quot;, 42 or {&quot;url&quot;: &quot;…&quot;}.</source>
        <translation>Geben Sie das Ergebnis als JSON ein, z. B. &quot;fertig&quot;, 42 oder {&quot;url&quot;: &quot;…&quot;}.</translation>
    </message>
    <message>
        <source>Text must be in double quotes to be a JSON string.</source>
        <translation>Text muss in doppelten Anführungszeichen stehen, um eine JSON-Zeichenkette zu sein.</translation>
    </message>
    <message>
        <source>Enter the error message the script should see.</source>
        <translation>Geben Sie die Fehlermeldung ein, die das Skript sehen soll.</translation>
    </message>
    <message>
        <source>There is no run to answer.</source>
        <translation>Es gibt keinen Lauf, der eine Antwort erwartet.</translation>
    </message>
    <message>
        <source>The run refused the answer: %1</source>
        <translation>Der Lauf hat die Antwort abgelehnt: %1</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; is closed, no longer waiting — attempt %2 of %3&lt;br&gt;&lt;small&gt;Call %4, step #%5&lt;/small&gt;</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; ist geschlossen, wartet nicht mehr – Versuch %2 von %3&lt;br&gt;&lt;small&gt;Aufruf %4, Schritt #%5&lt;/small&gt;</translation>
    </message>
    <message>
        <source>The tool failed: the script gets the message below</source>
        <translation>Das Tool ist fehlgeschlagen: Das Skript erhält die Meldung unten</translation>
    </message>
    <message>
        <source>An injected timeout (bound &quot;injected&quot;) with the engine&apos;s message</source>
        <translation>Eine eingeschleuste Zeitüberschreitung (Grenze „injected“) mit der Meldung der Engine</translation>
    </message>
    <message>
        <source>C&amp;ode:</source>
        <translation>C&amp;ode:</translation>
    </message>
    <message>
        <source>Answer Instead</source>
        <translation>Stattdessen antworten</translation>
    </message>
    <message>
        <source>Step mode: end the held call with the value above as its result; its handler does not run (Ctrl+Return)</source>
        <translation>Schrittmodus: den gehaltenen Aufruf mit dem Wert oben als Ergebnis beenden; sein Handler läuft nicht (Strg+Eingabe)</translation>
    </message>
    <message>
        <source>Fail Call</source>
        <translation>Aufruf scheitern lassen</translation>
    </message>
    <message>
        <source>Step mode: end the held call with this error; its handler does not run and the step is not retried (Ctrl+Return in this box)</source>
        <translation>Schrittmodus: den gehaltenen Aufruf mit diesem Fehler beenden; sein Handler läuft nicht, und der Schritt wird nicht wiederholt (Strg+Eingabe in diesem Feld)</translation>
    </message>
    <message>
        <source>Or fail the call without running it</source>
        <translation>Oder den Aufruf scheitern lassen, ohne ihn auszuführen</translation>
    </message>
    <message>
        <source>The engine&apos;s message: timed out by hand in step mode</source>
        <translation>Die Meldung der Engine: im Schrittmodus von Hand abgelaufen</translation>
    </message>
    <message>
        <source>Retryable</source>
        <translation>Wiederholbar</translation>
    </message>
    <message>
        <source>The script sees the flag; step mode does not retry the call</source>
        <translation>Das Skript sieht das Kennzeichen; der Schrittmodus wiederholt den Aufruf nicht</translation>
    </message>
    <message>
        <source>Send Reply</source>
        <translation>Antwort senden</translation>
    </message>
    <message>
        <source>Send the text and tool calls above as the model&apos;s reply; the script&apos;s loop goes on</source>
        <translation>Text und Tool-Aufrufe oben als Antwort des Modells senden; die Schleife des Skripts läuft weiter</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; is held before it runs (step mode or tool approval) — its handler has not run&lt;br&gt;&lt;small&gt;Call %2, step #%3&lt;/small&gt;</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; wird vor der Ausführung angehalten (Schrittmodus oder Tool-Freigabe) – sein Handler ist nicht gelaufen&lt;br&gt;&lt;small&gt;Aufruf %2, Schritt #%3&lt;/small&gt;</translation>
    </message>
    <message>
        <source>&amp;Decline</source>
        <translation>A&amp;blehnen</translation>
    </message>
    <message>
        <source>Tell the server the person declines to give what it asks</source>
        <translation>Dem Server sagen, dass die Person das Erbetene nicht gibt</translation>
    </message>
    <message>
        <source>Ca&amp;ncel</source>
        <translation>Abbre&amp;chen</translation>
    </message>
    <message>
        <source>Tell the server the person dismissed the question without a choice</source>
        <translation>Dem Server sagen, dass die Person die Frage ohne Entscheidung geschlossen hat</translation>
    </message>
    <message>
        <source>&amp;Accept</source>
        <translation>Anne&amp;hmen</translation>
    </message>
    <message>
        <source>Send the form&apos;s values to the server (Ctrl+Return)</source>
        <translation>Die Werte des Formulars an den Server senden (Strg+Eingabe)</translation>
    </message>
    <message>
        <source>Send the text as the model&apos;s reply to the server</source>
        <translation>Den Text als Antwort des Modells an den Server senden</translation>
    </message>
    <message>
        <source>Refuse the server&apos;s request: it gets an error with this message</source>
        <translation>Die Anfrage des Servers ablehnen: er erhält einen Fehler mit dieser Meldung</translation>
    </message>
    <message>
        <source>Or refuse the request with an error</source>
        <translation>Oder die Anfrage mit einem Fehler ablehnen</translation>
    </message>
    <message>
        <source>Why, as the server will see it</source>
        <translation>Warum – so, wie der Server es sieht</translation>
    </message>
    <message>
        <source>System prompt: %1</source>
        <translation>System-Prompt: %1</translation>
    </message>
    <message>
        <source>asks a person for input</source>
        <translation>bittet eine Person um eine Eingabe</translation>
    </message>
    <message>
        <source>asks a person to write a model&apos;s reply</source>
        <translation>bittet eine Person, die Antwort eines Modells zu schreiben</translation>
    </message>
    <message>
        <source>MCP server &lt;b&gt;%1&lt;/b&gt; %2 during &lt;b&gt;%3&lt;/b&gt;&lt;br&gt;&lt;small&gt;Call %4, step #%5&lt;/small&gt;</source>
        <translation>MCP-Server &lt;b&gt;%1&lt;/b&gt; %2 während &lt;b&gt;%3&lt;/b&gt;&lt;br&gt;&lt;small&gt;Aufruf %4, Schritt #%5&lt;/small&gt;</translation>
    </message>
    <message>
        <source>The server asks:</source>
        <translation>Der Server fragt:</translation>
    </message>
    <message>
        <source>&amp;Answer (the form the server asks for):</source>
        <translation>&amp;Antwort (das Formular, das der Server verlangt):</translation>
    </message>
    <message>
        <source>Step mode: send the text and tool calls above as the model&apos;s reply instead of asking the model (Ctrl+Return)</source>
        <translation>Schrittmodus: den Text und die Tool-Aufrufe oben als Antwort des Modells senden, statt das Modell zu fragen (Strg+Eingabe)</translation>
    </message>
    <message>
        <source>&amp;Open in Browser…</source>
        <translation>Im &amp;Browser öffnen…</translation>
    </message>
    <message>
        <source>Asks first, then opens the page in your browser and tells the server you accepted; what you enter there goes to the page, not through the studio</source>
        <translation>Fragt zuerst, öffnet dann die Seite in Ihrem Browser und teilt dem Server mit, dass Sie zugestimmt haben; was Sie dort eingeben, geht an die Seite, nicht durch das Studio</translation>
    </message>
    <message>
        <source>Open a Page for an MCP Server</source>
        <translation>Seite für einen MCP-Server öffnen</translation>
    </message>
    <message>
        <source>MCP server &lt;b&gt;%1&lt;/b&gt; asks you to open a page on &lt;b&gt;%2&lt;/b&gt;:&lt;br&gt;&lt;br&gt;%3&lt;br&gt;&lt;br&gt;Open it in your browser? What you enter there goes to that site, not through Tool Studio.</source>
        <translation>MCP-Server &lt;b&gt;%1&lt;/b&gt; bittet Sie, eine Seite auf &lt;b&gt;%2&lt;/b&gt; zu öffnen:&lt;br&gt;&lt;br&gt;%3&lt;br&gt;&lt;br&gt;Im Browser öffnen? Was Sie dort eingeben, geht an diese Website, nicht durch Tool Studio.</translation>
    </message>
    <message>
        <source>The browser could not be started. Open the page yourself, then answer: %1</source>
        <translation>Der Browser konnte nicht gestartet werden. Öffnen Sie die Seite selbst und antworten Sie dann: %1</translation>
    </message>
    <message>
        <source>It asks you to open a page on %1 in your browser:
%2

Its message:
%3</source>
        <translation>Er bittet Sie, eine Seite auf %1 in Ihrem Browser zu öffnen:
%2

Seine Nachricht:
%3</translation>
    </message>
    <message>
        <source>The server withdrew that page while you decided; nothing was opened. Read what it asks now.</source>
        <translation>Der Server hat diese Seite zurückgezogen, während Sie entschieden haben; nichts wurde geöffnet. Lesen Sie, was er jetzt fragt.</translation>
    </message>
    <message>
        <source>has a changed tool to accept or reject</source>
        <translation>hat ein geändertes Werkzeug zum Annehmen oder Ablehnen</translation>
    </message>
    <message>
        <source>Write the reply (required)</source>
        <translation>Antwort schreiben (erforderlich)</translation>
    </message>
    <message>
        <source>The server requires a tool call: Send Tool Call above</source>
        <translation>Der Server verlangt einen Tool-Aufruf: „Tool-Aufruf senden“ oben</translation>
    </message>
    <message>
        <source>Write the reply, or send a tool call above</source>
        <translation>Antwort schreiben oder oben einen Tool-Aufruf senden</translation>
    </message>
    <message>
        <source>The question of MCP server &lt;b&gt;%1&lt;/b&gt; during &lt;b&gt;%2&lt;/b&gt; is closed: answered, or taken back by the server&lt;br&gt;&lt;small&gt;Call %3, step #%4&lt;/small&gt;</source>
        <translation>Die Frage von MCP-Server &lt;b&gt;%1&lt;/b&gt; während &lt;b&gt;%2&lt;/b&gt; ist geschlossen: beantwortet oder vom Server zurückgezogen&lt;br&gt;&lt;small&gt;Aufruf %3, Schritt #%4&lt;/small&gt;</translation>
    </message>
</context>
<context>
    <name>AnswerRoute</name>
    <message>
        <source>Failed without running (timeout): timed out by hand</source>
        <translation>Gescheitert ohne Ausführung (timeout): von Hand abgelaufen</translation>
    </message>
    <message>
        <source>Failed without running (tool_failed): %1</source>
        <translation>Gescheitert ohne Ausführung (tool_failed): %1</translation>
    </message>
    <message>
        <source>Answered with a retryable error: %1</source>
        <translation>Beantwortet mit einem wiederholbaren Fehler: %1</translation>
    </message>
    <message>
        <source>Answered with an error: %1</source>
        <translation>Beantwortet mit einem Fehler: %1</translation>
    </message>
    <message>
        <source>Answered instead with %1 (the handler did not run)</source>
        <translation>Stattdessen beantwortet mit %1 (der Handler lief nicht)</translation>
    </message>
    <message>
        <source>Answered with %1</source>
        <translation>Beantwortet mit %1</translation>
    </message>
</context>
<context>
    <name>AttemptClocks</name>
    <message numerus="yes">
        <source>+%n more call(s) in flight</source>
        <translation>
            <numerusform>+%n weiterer laufender Aufruf</numerusform>
            <numerusform>+%n weitere laufende Aufrufe</numerusform>
        </translation>
    </message>
    <message>
        <source>#%1 %2 waiting %3 (no wait bound)</source>
        <translation>#%1 %2 wartet %3 (keine Wartegrenze)</translation>
    </message>
    <message>
        <source>#%1 %2 attempt %3: %4 (no attempt timeout)</source>
        <translation>#%1 %2 Versuch %3: %4 (kein Versuchs-Timeout)</translation>
    </message>
    <message>
        <source>#%1 %2 waiting %3 of %4</source>
        <translation>#%1 %2 wartet %3 von %4</translation>
    </message>
    <message>
        <source>#%1 %2 attempt %3: %4 of %5</source>
        <translation>#%1 %2 Versuch %3: %4 von %5</translation>
    </message>
    <message>
        <source>#%1 %2 waiting %3 for a person (attempt timeout paused)</source>
        <translation>#%1 %2 wartet %3 auf eine Person (Versuchs-Timeout angehalten)</translation>
    </message>
</context>
<context>
    <name>BridgeChannel</name>
    <message>
        <source>file descriptors passed over the bridge are refused</source>
        <translation>über die Brücke übergebene Dateideskriptoren werden abgelehnt</translation>
    </message>
    <message>
        <source>a bridge line of %1 bytes exceeds the limit of %2 bytes</source>
        <translation>eine Zeile auf der Brücke mit %1 Bytes überschreitet die Grenze von %2 Bytes</translation>
    </message>
    <message>
        <source>a bridge line exceeds the limit of %1 bytes (%2 bytes so far, no &apos;\n&apos; yet)</source>
        <translation>eine Zeile auf der Brücke überschreitet die Grenze von %1 Bytes (bisher %2 Bytes, noch kein &apos;\n&apos;)</translation>
    </message>
    <message>
        <source>a bridge line of at least %1 bytes exceeds the limit of %2 bytes (the bridge closed before its end)</source>
        <translation>eine Zeile auf der Brücke mit mindestens %1 Bytes überschreitet die Grenze von %2 Bytes (die Brücke wurde vor ihrem Ende geschlossen)</translation>
    </message>
    <message>
        <source>the bridge closed in the middle of a line (%1 bytes without &apos;\n&apos;)</source>
        <translation>die Brücke wurde mitten in einer Zeile geschlossen (%1 Bytes ohne &apos;\n&apos;)</translation>
    </message>
</context>
<context>
    <name>BudgetMeters</name>
    <message>
        <source>calls %1/%2</source>
        <translation>Aufrufe %1/%2</translation>
    </message>
    <message>
        <source>largest request %1 of %2</source>
        <translation>größte Anfrage %1 von %2</translation>
    </message>
    <message>
        <source>largest reply %1 of %2</source>
        <translation>größte Antwort %1 von %2</translation>
    </message>
    <message>
        <source>elapsed %1 of %2</source>
        <translation>vergangen %1 von %2</translation>
    </message>
    <message>
        <source>(+%1 waiting, not counted)</source>
        <translation>(+%1 Wartezeit, nicht gezählt)</translation>
    </message>
    <message>
        <source>model calls %1/%2</source>
        <translation>Modellaufrufe %1/%2</translation>
    </message>
    <message>
        <source>tokens %1/%2</source>
        <translation>Tokens %1/%2</translation>
    </message>
    <message>
        <source>tokens %1</source>
        <translation>Tokens %1</translation>
    </message>
    <message numerus="yes">
        <source>Imported run %1: %n step(s), %2</source>
        <translation>
            <numerusform>Importierter Lauf %1: %n Schritt, %2</numerusform>
            <numerusform>Importierter Lauf %1: %n Schritte, %2</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Run %1 from the journal: %n step(s), %2</source>
        <translation>
            <numerusform>Lauf %1 aus dem Journal: %n Schritt, %2</numerusform>
            <numerusform>Lauf %1 aus dem Journal: %n Schritte, %2</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 from start to end</source>
        <translation>%1 vom Start bis zum Ende</translation>
    </message>
    <message>
        <source>the meters count the live run</source>
        <translation>die Zähler zeigen den laufenden Lauf</translation>
    </message>
</context>
<context>
    <name>Bundle</name>
    <message>
        <source>%1: cannot add %2 (zip error %3)</source>
        <translation>%1: %2 kann nicht hinzugefügt werden (Zip-Fehler %3)</translation>
    </message>
    <message>
        <source>tool &apos;%1&apos;</source>
        <translation>Tool &apos;%1&apos;</translation>
    </message>
    <message>
        <source>%1: cannot read: %2</source>
        <translation>%1: kann nicht gelesen werden: %2</translation>
    </message>
    <message>
        <source>valves of %1</source>
        <translation>Valves von %1</translation>
    </message>
    <message>
        <source>%1: cannot create (zip error %2)</source>
        <translation>%1: kann nicht angelegt werden (Zip-Fehler %2)</translation>
    </message>
    <message>
        <source>%1: cannot write (zip error %2)</source>
        <translation>%1: kann nicht geschrieben werden (Zip-Fehler %2)</translation>
    </message>
    <message>
        <source>%1: cannot write</source>
        <translation>%1: kann nicht geschrieben werden</translation>
    </message>
    <message>
        <source>%1: not a zip file (or it cannot be read)</source>
        <translation>%1: keine Zip-Datei (oder sie kann nicht gelesen werden)</translation>
    </message>
    <message>
        <source>%1: %2 entries, more than the %3 a bundle may hold</source>
        <translation>%1: %2 Einträge, mehr als die %3, die ein Bundle enthalten darf</translation>
    </message>
    <message>
        <source>%1: a damaged entry (zip error %2)</source>
        <translation>%1: ein beschädigter Eintrag (Zip-Fehler %2)</translation>
    </message>
    <message>
        <source>entry &apos;%1&apos;: a path outside the project (absolute or with &apos;..&apos;) is refused</source>
        <translation>Eintrag &apos;%1&apos;: ein Pfad außerhalb des Projekts (absolut oder mit &apos;..&apos;) wird abgelehnt</translation>
    </message>
    <message>
        <source>entry &apos;%1&apos;: not part of a bundle (only bundle.json and tools/NAME.py)</source>
        <translation>Eintrag &apos;%1&apos;: gehört nicht zu einem Bundle (nur bundle.json und tools/NAME.py)</translation>
    </message>
    <message>
        <source>entry &apos;%1&apos;: %2 bytes, more than the %3 bytes a bundle entry may hold</source>
        <translation>Eintrag &apos;%1&apos;: %2 Bytes, mehr als die %3 Bytes, die ein Bundle-Eintrag enthalten darf</translation>
    </message>
    <message>
        <source>entry &apos;%1&apos;: cannot read (zip error %2)</source>
        <translation>Eintrag &apos;%1&apos;: kann nicht gelesen werden (Zip-Fehler %2)</translation>
    </message>
    <message>
        <source>entry &apos;%1&apos;: more than the %2 bytes a bundle entry may hold</source>
        <translation>Eintrag &apos;%1&apos;: mehr als die %2 Bytes, die ein Bundle-Eintrag enthalten darf</translation>
    </message>
    <message>
        <source>entry &apos;%1&apos;: damaged (zip error %2)</source>
        <translation>Eintrag &apos;%1&apos;: beschädigt (Zip-Fehler %2)</translation>
    </message>
    <message>
        <source>%1: no bundle.json: not a Tool Studio bundle</source>
        <translation>%1: keine bundle.json: kein Tool-Studio-Bundle</translation>
    </message>
    <message>
        <source>%1: bundle.json is not a Tool Studio bundle manifest</source>
        <translation>%1: bundle.json ist kein Tool-Studio-Bundle-Manifest</translation>
    </message>
    <message>
        <source>%1: bundle version %2 is not supported (this studio reads version 1)</source>
        <translation>%1: Bundle-Version %2 wird nicht unterstützt (dieses Studio liest Version 1)</translation>
    </message>
    <message>
        <source>tool &apos;%1&apos; (%2): the project already has a tool of that name%3</source>
        <translation>Tool &apos;%1&apos; (%2): das Projekt hat bereits ein Tool dieses Namens%3</translation>
    </message>
    <message>
        <source> (in %1)</source>
        <translation> (in %1)</translation>
    </message>
    <message>
        <source>tool &apos;%1&apos;: defined twice in the bundle (%2 and %3)</source>
        <translation>Tool &apos;%1&apos;: im Bundle doppelt definiert (%2 und %3)</translation>
    </message>
    <message>
        <source>%1: the project already has a file of that name</source>
        <translation>%1: das Projekt hat bereits eine Datei dieses Namens</translation>
    </message>
    <message>
        <source>%1: cannot stage: %2</source>
        <translation>%1: kann nicht bereitgestellt werden: %2</translation>
    </message>
    <message>
        <source>the bundle&apos;s tool files cannot be described: %1</source>
        <translation>die Tool-Dateien des Bundles können nicht beschrieben werden: %1</translation>
    </message>
    <message>
        <source>%1: cannot write: %2</source>
        <translation>%1: kann nicht geschrieben werden: %2</translation>
    </message>
    <message>
        <source>entry &apos;%1&apos;: the entries unpack to more than the %2 bytes a bundle may hold</source>
        <translation>Eintrag &apos;%1&apos;: die Einträge ergeben entpackt mehr als die %2 Bytes, die ein Bundle enthalten darf</translation>
    </message>
    <message>
        <source>%1: bundle.json is not valid JSON: %2</source>
        <translation>%1: bundle.json ist kein gültiges JSON: %2</translation>
    </message>
    <message>
        <source>the bundle has Python tool files, and reading their tools runs their code: %1</source>
        <translation>das Bundle enthält Python-Tooldateien, und das Lesen ihrer Tools führt ihren Code aus: %1</translation>
    </message>
    <message>
        <source>bundle.json: tool &apos;%1&apos;: invalid name (%2)</source>
        <translation>bundle.json: Tool &apos;%1&apos;: ungültiger Name (%2)</translation>
    </message>
</context>
<context>
    <name>ChatDock</name>
    <message>
        <source>The model to ask; a change applies from the next message on</source>
        <translation>Das gefragte Modell; eine Änderung gilt ab der nächsten Nachricht</translation>
    </message>
    <message>
        <source>Message the model (Ctrl+Return sends)</source>
        <translation>Nachricht an das Modell (Strg+Eingabe sendet)</translation>
    </message>
    <message>
        <source>&amp;Send</source>
        <translation>&amp;Senden</translation>
    </message>
    <message>
        <source>&amp;New Chat</source>
        <translation>&amp;Neuer Chat</translation>
    </message>
    <message>
        <source>Keep this chat for later (resume it from the Runs dock) and start a new one</source>
        <translation>Diesen Chat für später behalten (im Dock „Läufe“ fortsetzen) und einen neuen beginnen</translation>
    </message>
    <message>
        <source>Model:</source>
        <translation>Modell:</translation>
    </message>
    <message>
        <source>Open a project to chat with its models.</source>
        <translation>Öffnen Sie ein Projekt, um mit seinen Modellen zu chatten.</translation>
    </message>
    <message>
        <source>A chat is a run of its own: every model turn and tool call is a step.</source>
        <translation>Ein Chat ist ein eigener Lauf: Jede Modellrunde und jeder Werkzeugaufruf ist ein Schritt.</translation>
    </message>
    <message>
        <source>The project declares no models: add one under &quot;models&quot; in toolstudio.json.</source>
        <translation>Das Projekt deklariert keine Modelle: Fügen Sie eines unter „models“ in toolstudio.json hinzu.</translation>
    </message>
    <message>
        <source>The message is empty.</source>
        <translation>Die Nachricht ist leer.</translation>
    </message>
    <message>
        <source>No model to ask.</source>
        <translation>Kein Modell zum Fragen.</translation>
    </message>
    <message>
        <source>The model is still answering.</source>
        <translation>Das Modell antwortet noch.</translation>
    </message>
    <message>
        <source>The message was refused: %1</source>
        <translation>Die Nachricht wurde abgelehnt: %1</translation>
    </message>
    <message>
        <source>You</source>
        <translation>Sie</translation>
    </message>
    <message>
        <source>%1 is answering…</source>
        <translation>%1 antwortet …</translation>
    </message>
    <message>
        <source>Tool</source>
        <translation>Tool</translation>
    </message>
    <message>
        <source>Error</source>
        <translation>Fehler</translation>
    </message>
    <message>
        <source>Chat run %1 waits for your next message.</source>
        <translation>Chat-Lauf %1 wartet auf Ihre nächste Nachricht.</translation>
    </message>
    <message>
        <source>The turn failed; send the message again.</source>
        <translation>Die Runde ist fehlgeschlagen; senden Sie die Nachricht erneut.</translation>
    </message>
    <message>
        <source>Chat run %1 %2%3</source>
        <translation>Chat-Lauf %1 %2%3</translation>
    </message>
    <message>
        <source>A&amp;pprove tool calls</source>
        <translation>Tool-Aufrufe &amp;genehmigen</translation>
    </message>
    <message>
        <source>Hold each tool call the model asks for until you approve it, answer it instead or reject it (the rejection goes back to the model)</source>
        <translation>Jeden Tool-Aufruf des Modells anhalten, bis Sie ihn freigeben, stattdessen beantworten oder ablehnen (die Ablehnung geht an das Modell zurück)</translation>
    </message>
    <message>
        <source>&amp;Approve</source>
        <translation>&amp;Freigeben</translation>
    </message>
    <message>
        <source>Run the call as the model asked</source>
        <translation>Den Aufruf so ausführen, wie das Modell ihn verlangt hat</translation>
    </message>
    <message>
        <source>&amp;Edit Arguments…</source>
        <translation>Argumente &amp;bearbeiten…</translation>
    </message>
    <message>
        <source>Change the arguments, then run the call</source>
        <translation>Die Argumente ändern, dann den Aufruf ausführen</translation>
    </message>
    <message>
        <source>&amp;Reject</source>
        <translation>&amp;Ablehnen</translation>
    </message>
    <message>
        <source>End the call with an error the model reads; the tool does not run</source>
        <translation>Den Aufruf mit einem Fehler beenden, den das Modell liest; das Tool läuft nicht</translation>
    </message>
    <message numerus="yes">
        <source> (%n more after it)</source>
        <translation>
            <numerusform> (danach noch %n weiterer)</numerusform>
            <numerusform> (danach noch %n weitere)</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 waits for your approval%2</source>
        <translation>%1 wartet auf Ihre Freigabe%2</translation>
    </message>
    <message>
        <source>%1 waits for your answer%2</source>
        <translation>%1 wartet auf Ihre Antwort%2</translation>
    </message>
    <message>
        <source>Answer &amp;Instead…</source>
        <translation>Statt&amp;dessen antworten…</translation>
    </message>
    <message>
        <source>Ans&amp;wer…</source>
        <translation>Ant&amp;worten…</translation>
    </message>
    <message>
        <source>End the call with a result or error you give; the tool does not run</source>
        <translation>Den Aufruf mit einem Ergebnis oder Fehler von Ihnen beenden; das Tool läuft nicht</translation>
    </message>
    <message>
        <source>Give the call&apos;s result or error</source>
        <translation>Das Ergebnis oder den Fehler des Aufrufs angeben</translation>
    </message>
    <message>
        <source>The call was not approved: %1</source>
        <translation>Der Aufruf wurde nicht freigegeben: %1</translation>
    </message>
    <message>
        <source>The call was not run: %1</source>
        <translation>Der Aufruf wurde nicht ausgeführt: %1</translation>
    </message>
    <message>
        <source>The call was not rejected: %1</source>
        <translation>Der Aufruf wurde nicht abgelehnt: %1</translation>
    </message>
    <message>
        <source>The chat waits for you; the run clock is paused.</source>
        <translation>Der Chat wartet auf Sie; die Laufzeituhr pausiert.</translation>
    </message>
    <message>
        <source>The chat&apos;s turn is still running. Keep the chat for later (resume it from the Runs dock or with toolstudio chat --continue; its recorded steps are memoized), or stop it?</source>
        <translation>Der Chat-Zug läuft noch. Den Chat für später behalten (im Dock „Läufe“ oder mit toolstudio chat --continue fortsetzen; seine aufgezeichneten Schritte kommen aus dem Memo) oder stoppen?</translation>
    </message>
    <message>
        <source>The chat waits for your approval of a tool call. Keep the chat for later (resume it from the Runs dock or with toolstudio chat --continue), or stop it?</source>
        <translation>Der Chat wartet darauf, dass Sie einen Tool-Aufruf genehmigen. Den Chat für später behalten (im Dock „Läufe“ oder mit toolstudio chat --continue fortsetzen) oder stoppen?</translation>
    </message>
    <message>
        <source>The chat waits for your answer to a tool call. Keep the chat for later (resume it from the Runs dock or with toolstudio chat --continue), or stop it?</source>
        <translation>Der Chat wartet auf Ihre Antwort auf einen Tool-Aufruf. Den Chat für später behalten (im Dock „Läufe“ oder mit toolstudio chat --continue fortsetzen) oder stoppen?</translation>
    </message>
    <message>
        <source>Chat in Progress</source>
        <translation>Chat aktiv</translation>
    </message>
    <message>
        <source>&amp;Keep for Later</source>
        <translation>Für später &amp;behalten</translation>
    </message>
    <message>
        <source>&amp;Stop Chat</source>
        <translation>Chat &amp;stoppen</translation>
    </message>
</context>
<context>
    <name>ChatTurn</name>
    <message>
        <source>the chat does not wait for a message</source>
        <translation>der Chat wartet auf keine Nachricht</translation>
    </message>
</context>
<context>
    <name>CleanUpRunsDialog</name>
    <message>
        <source>Clean Up Runs</source>
        <translation>Läufe aufräumen</translation>
    </message>
    <message>
        <source>Delete the runs that match a ticked rule, with their steps, output and events. Live runs (running or waiting) are never deleted.</source>
        <translation>Löscht die Läufe, auf die eine angekreuzte Regel zutrifft, mit ihren Schritten, Ausgaben und Ereignissen. Aktive Läufe (laufend oder wartend) werden nie gelöscht.</translation>
    </message>
    <message>
        <source>Runs started more than</source>
        <translation>Läufe, gestartet vor mehr als</translation>
    </message>
    <message>
        <source>days ago</source>
        <translation>Tagen</translation>
    </message>
    <message>
        <source>All but the</source>
        <translation>Alle außer den</translation>
    </message>
    <message>
        <source>newest runs</source>
        <translation>neuesten Läufen</translation>
    </message>
    <message>
        <source>Compact the journal afterwards (it is %1 now; compacting gives the space of deleted runs back to the disk)</source>
        <translation>Journal danach verdichten (jetzt %1; das Verdichten gibt den Platz gelöschter Läufe an das Dateisystem zurück)</translation>
    </message>
    <message>
        <source>&amp;Clean Up</source>
        <translation>A&amp;ufräumen</translation>
    </message>
    <message>
        <source>The journal&apos;s runs cannot be read: %1</source>
        <translation>Die Läufe des Journals können nicht gelesen werden: %1</translation>
    </message>
    <message>
        <source>No rule is ticked: no run will be deleted.</source>
        <translation>Keine Regel ist angekreuzt: Kein Lauf wird gelöscht.</translation>
    </message>
    <message>
        <source>No run matches: none will be deleted.</source>
        <translation>Auf keinen Lauf trifft eine Regel zu: Keiner wird gelöscht.</translation>
    </message>
    <message>
        <source>The journal will only be compacted.</source>
        <translation>Das Journal wird nur verdichtet.</translation>
    </message>
    <message numerus="yes">
        <source>%n run(s) will be deleted: %1.</source>
        <translation>
            <numerusform>%n Lauf wird gelöscht: %1.</numerusform>
            <numerusform>%n Läufe werden gelöscht: %1.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n runs will be deleted: %1 and %2 more.</source>
        <translation>
            <numerusform>%n Lauf wird gelöscht: %1 und %2 weitere.</numerusform>
            <numerusform>%n Läufe werden gelöscht: %1 und %2 weitere.</numerusform>
        </translation>
    </message>
    <message>
        <source>This cannot be undone.</source>
        <translation>Das kann nicht rückgängig gemacht werden.</translation>
    </message>
</context>
<context>
    <name>ConsoleView</name>
    <message>
        <source>The script&apos;s output appears here when it runs.</source>
        <translation>Die Ausgabe des Skripts erscheint hier, sobald es läuft.</translation>
    </message>
    <message>
        <source>▸ step #%1 %2</source>
        <translation>▸ Schritt #%1 %2</translation>
    </message>
    <message>
        <source>▸ steps #%1 %2 … #%3 (%4 steps)</source>
        <translation>▸ Schritte #%1 %2 … #%3 (%4 Schritte)</translation>
    </message>
</context>
<context>
    <name>ContentBlocksView</name>
    <message>
        <source>… cut at %1 of %2 characters: the Tree tab and Copy as JSON have all of it</source>
        <translation>… gekürzt bei %1 von %2 Zeichen: der Reiter Baum und „Als JSON kopieren“ haben alles</translation>
    </message>
    <message>
        <source>no mimeType</source>
        <translation>kein mimeType</translation>
    </message>
    <message>
        <source>%1: not shown: its data is not base64</source>
        <translation>%1: nicht angezeigt: die Daten sind kein Base64</translation>
    </message>
    <message>
        <source>%1: not shown: %2</source>
        <translation>%1: nicht angezeigt: %2</translation>
    </message>
    <message>
        <source>not an image format shown here (PNG, JPEG, GIF, BMP, WebP)</source>
        <translation>kein hier angezeigtes Bildformat (PNG, JPEG, GIF, BMP, WebP)</translation>
    </message>
    <message>
        <source>%1 is not shown here (PNG, JPEG, GIF, BMP, WebP are)</source>
        <translation>%1 wird hier nicht angezeigt (PNG, JPEG, GIF, BMP, WebP schon)</translation>
    </message>
    <message>
        <source>not an image Qt can read</source>
        <translation>kein Bild, das Qt lesen kann</translation>
    </message>
    <message>
        <source>it declares %1×%2 pixels, more than the %3 million shown</source>
        <translation>es gibt %1×%2 Pixel an, mehr als die angezeigten %3 Millionen</translation>
    </message>
    <message>
        <source>%1, %2×%3</source>
        <translation>%1, %2×%3</translation>
    </message>
    <message>
        <source>%1 · %2</source>
        <translation>%1 · %2</translation>
    </message>
    <message>
        <source>link to %1</source>
        <translation>Verweis auf %1</translation>
    </message>
    <message>
        <source>size: %1</source>
        <translation>Größe: %1</translation>
    </message>
    <message>
        <source>embedded %1%2</source>
        <translation>eingebettet %1%2</translation>
    </message>
    <message>
        <source>a blob of %1</source>
        <translation>ein Blob von %1</translation>
    </message>
    <message>
        <source>not shown here: see the Tree tab</source>
        <translation>hier nicht angezeigt: siehe Reiter Baum</translation>
    </message>
    <message>
        <source>%1 · %2 · %3</source>
        <translation>%1 · %2 · %3</translation>
    </message>
    <message>
        <source>a blob that is not base64 (%1 characters): not shown</source>
        <translation>ein Blob, der kein Base64 ist (%1 Zeichen): nicht angezeigt</translation>
    </message>
    <message>
        <source>%1: not shown: no data at hand</source>
        <translation>%1: nicht angezeigt: keine Daten zur Hand</translation>
    </message>
    <message>
        <source>the images above declare %1 million pixels; at most %2 million are decoded in one view</source>
        <translation>die Bilder oben geben %1 Millionen Pixel an; höchstens %2 Millionen werden in einer Ansicht dekodiert</translation>
    </message>
    <message>
        <source>not played here; Copy as JSON has the data</source>
        <translation>hier nicht abgespielt; „Als JSON kopieren“ enthält die Daten</translation>
    </message>
    <message>
        <source>%1 scans, more than the %2 decoded (a progressive JPEG has about 10)</source>
        <translation>%1 Scans, mehr als die %2 dekodierten (ein progressives JPEG hat etwa 10)</translation>
    </message>
    <message>
        <source>decoding…</source>
        <translation>dekodiere…</translation>
    </message>
</context>
<context>
    <name>DirectToolCall</name>
    <message>
        <source>the window was closed</source>
        <translation>das Fenster wurde geschlossen</translation>
    </message>
    <message>
        <source>a call is already in progress</source>
        <translation>ein Aufruf läuft bereits</translation>
    </message>
    <message>
        <source>no call is in progress</source>
        <translation>kein Aufruf läuft</translation>
    </message>
    <message>
        <source>cancelled from the Tool dock</source>
        <translation>im Tool-Dock abgebrochen</translation>
    </message>
    <message>
        <source>the call failed</source>
        <translation>der Aufruf ist fehlgeschlagen</translation>
    </message>
</context>
<context>
    <name>DockLayout</name>
    <message>
        <source>&amp;Reset Layout</source>
        <translation>Anordnung &amp;zurücksetzen</translation>
    </message>
    <message>
        <source>Put every dock back where it was at the first start</source>
        <translation>Alle Docks dorthin zurücklegen, wo sie beim ersten Start waren</translation>
    </message>
</context>
<context>
    <name>DocumentationWindow</name>
    <message>
        <source>Tool Studio Documentation</source>
        <translation>Tool-Studio-Dokumentation</translation>
    </message>
    <message>
        <source>Back</source>
        <translation>Zurück</translation>
    </message>
    <message>
        <source>The page shown before (Alt+Left)</source>
        <translation>Die zuvor gezeigte Seite (Alt+Links)</translation>
    </message>
    <message>
        <source>Forward</source>
        <translation>Vor</translation>
    </message>
    <message>
        <source>The page shown after (Alt+Right)</source>
        <translation>Die danach gezeigte Seite (Alt+Rechts)</translation>
    </message>
    <message>
        <source>Contents</source>
        <translation>Inhalt</translation>
    </message>
    <message>
        <source>The index of the documentation</source>
        <translation>Das Inhaltsverzeichnis der Dokumentation</translation>
    </message>
    <message>
        <source>There is no page %1 in this documentation.</source>
        <translation>Diese Dokumentation hat keine Seite %1.</translation>
    </message>
    <message>
        <source>Opened %1 in the browser.</source>
        <translation>%1 im Browser geöffnet.</translation>
    </message>
    <message>
        <source>The link %1 leads to no page of this documentation.</source>
        <translation>Der Verweis %1 führt zu keiner Seite dieser Dokumentation.</translation>
    </message>
    <message>
        <source>%1 — Tool Studio Documentation</source>
        <translation>%1 — Tool-Studio-Dokumentation</translation>
    </message>
</context>
<context>
    <name>DurableRunActions</name>
    <message>
        <source>Rerun from &amp;Step…</source>
        <translation>Ab &amp;Schritt erneut ausführen…</translation>
    </message>
    <message>
        <source>Rerun from This Step…</source>
        <translation>Ab diesem Schritt erneut ausführen…</translation>
    </message>
    <message>
        <source>Save &amp;Cassette…</source>
        <translation>&amp;Kassette speichern…</translation>
    </message>
    <message>
        <source>Run with Cass&amp;ette…</source>
        <translation>Mit Kass&amp;ette ausführen…</translation>
    </message>
    <message>
        <source>Open a project first.</source>
        <translation>Öffnen Sie zuerst ein Projekt.</translation>
    </message>
    <message>
        <source>Wait until the current run has finished (or stop it).</source>
        <translation>Warten Sie, bis der aktuelle Lauf beendet ist (oder stoppen Sie ihn).</translation>
    </message>
    <message>
        <source>The trace shows an imported run: it is not in this project&apos;s journal, so there is nothing to rerun or record. Open a run from the Runs dock.</source>
        <translation>Der Ablauf zeigt einen importierten Lauf: Er steht nicht im Journal dieses Projekts, daher gibt es nichts erneut auszuführen oder aufzuzeichnen. Öffnen Sie einen Lauf im Dock „Läufe“.</translation>
    </message>
    <message>
        <source>There is no run yet: run the script first (F5).</source>
        <translation>Es gibt noch keinen Lauf: Führen Sie zuerst das Skript aus (F5).</translation>
    </message>
    <message>
        <source>The project&apos;s journal cannot be read.</source>
        <translation>Das Journal des Projekts kann nicht gelesen werden.</translation>
    </message>
    <message>
        <source>Run %1 made no tool calls: there is no step to rerun or record.</source>
        <translation>Lauf %1 hat keine Tools aufgerufen: Es gibt keinen Schritt, der erneut ausgeführt oder aufgezeichnet werden kann.</translation>
    </message>
    <message>
        <source>Run %1 again from a step you choose, optionally with edited arguments: the steps before it are memoized, it and every step after it run for real</source>
        <translation>Lauf %1 ab einem gewählten Schritt erneut ausführen, optional mit geänderten Argumenten: Die Schritte davor kommen aus dem Memo, dieser und alle späteren laufen echt</translation>
    </message>
    <message>
        <source>Select a step in the trace first.</source>
        <translation>Wählen Sie zuerst einen Schritt im Ablauf aus.</translation>
    </message>
    <message>
        <source>Rerun %1 from the selected step, optionally with edited arguments</source>
        <translation>%1 ab dem ausgewählten Schritt erneut ausführen, optional mit geänderten Argumenten</translation>
    </message>
    <message>
        <source>Save run %1&apos;s tool results to a file, to run a script against it offline</source>
        <translation>Die Tool-Ergebnisse von Lauf %1 in eine Datei speichern, um ein Skript offline damit auszuführen</translation>
    </message>
    <message>
        <source>Run the current script offline against a cassette file: every call is answered from the file or fails</source>
        <translation>Das aktuelle Skript offline mit einer Kassettendatei ausführen: Jeder Aufruf wird aus der Datei beantwortet oder schlägt fehl</translation>
    </message>
    <message>
        <source>Run %1 made no tool calls: there is no step to rerun.</source>
        <translation>Lauf %1 hat keine Tools aufgerufen: Es gibt keinen Schritt, der erneut ausgeführt werden kann.</translation>
    </message>
    <message>
        <source>Rerun from Step</source>
        <translation>Ab Schritt erneut ausführen</translation>
    </message>
    <message>
        <source>Cannot Rerun</source>
        <translation>Erneutes Ausführen nicht möglich</translation>
    </message>
    <message>
        <source>Rerunning %1 from step %2…</source>
        <translation>%1 wird ab Schritt %2 erneut ausgeführt…</translation>
    </message>
    <message>
        <source>Save Cassette</source>
        <translation>Kassette speichern</translation>
    </message>
    <message>
        <source>Cassettes (*.cassette.json);;JSON files (*.json)</source>
        <translation>Kassetten (*.cassette.json);;JSON-Dateien (*.json)</translation>
    </message>
    <message>
        <source>Cannot save the cassette: %1</source>
        <translation>Die Kassette kann nicht gespeichert werden: %1</translation>
    </message>
    <message numerus="yes">
        <source>Cassette of run %1 saved to %2 (%n step(s))</source>
        <translation>
            <numerusform>Kassette von Lauf %1 in %2 gespeichert (%n Schritt)</numerusform>
            <numerusform>Kassette von Lauf %1 in %2 gespeichert (%n Schritte)</numerusform>
        </translation>
    </message>
    <message>
        <source>Run with Cassette</source>
        <translation>Mit Kassette ausführen</translation>
    </message>
    <message>
        <source>Cassettes (*.cassette.json *.json);;All files (*)</source>
        <translation>Kassetten (*.cassette.json *.json);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>Cannot Run with Cassette</source>
        <translation>Ausführen mit Kassette nicht möglich</translation>
    </message>
    <message>
        <source>Running offline against %1…</source>
        <translation>Läuft offline mit %1…</translation>
    </message>
    <message>
        <source>Divergence at step %1: %2 — offline, so this call and every later one fails (not in the cassette)</source>
        <translation>Abweichung bei Schritt %1: %2 — offline, daher schlagen dieser und alle späteren Aufrufe fehl (nicht in der Kassette)</translation>
    </message>
    <message>
        <source>Divergence at step %1: %2 — this call and every later one runs for real</source>
        <translation>Abweichung bei Schritt %1: %2 — dieser und alle späteren Aufrufe laufen echt</translation>
    </message>
    <message>
        <source>Rerun from Ste&amp;p…</source>
        <translation>Ab Schritt er&amp;neut…</translation>
    </message>
    <message>
        <source>The project is not trusted, so nothing of it runs: choose Trust Project in the bar above the editor.</source>
        <translation>Dem Projekt wird nicht vertraut, daher läuft nichts davon: Wählen Sie „Projekt vertrauen“ in der Leiste über dem Editor.</translation>
    </message>
</context>
<context>
    <name>EditArgumentsDialog</name>
    <message>
        <source>Edit Arguments of %1</source>
        <translation>Argumente von %1 bearbeiten</translation>
    </message>
    <message>
        <source>The call runs with these arguments instead of the model&apos;s. The model sees the result, not the change; the trace keeps both.</source>
        <translation>Der Aufruf läuft mit diesen Argumenten statt mit denen des Modells. Das Modell sieht das Ergebnis, nicht die Änderung; der Trace behält beide.</translation>
    </message>
    <message>
        <source>&amp;Run</source>
        <translation>&amp;Ausführen</translation>
    </message>
</context>
<context>
    <name>EditMessagesDialog</name>
    <message>
        <source>Edit Messages to %1</source>
        <translation>Nachrichten an %1 bearbeiten</translation>
    </message>
    <message>
        <source>The request goes with these messages instead of the script&apos;s (a JSON array in the neutral shape: role, content, tool_calls, tool_call_id). The script sees the reply, not the change; the trace keeps both.</source>
        <translation>Die Anfrage geht mit diesen Nachrichten statt denen des Skripts hinaus (ein JSON-Array in der neutralen Form: role, content, tool_calls, tool_call_id). Das Skript sieht die Antwort, nicht die Änderung; der Trace behält beide.</translation>
    </message>
    <message>
        <source>&amp;Send</source>
        <translation>&amp;Senden</translation>
    </message>
    <message>
        <source>Send the request with these messages (Ctrl+Return)</source>
        <translation>Die Anfrage mit diesen Nachrichten senden (Strg+Eingabe)</translation>
    </message>
    <message>
        <source>Enter the messages as a JSON array, e.g. [{&quot;role&quot;: &quot;user&quot;, &quot;content&quot;: &quot;Hello&quot;}].</source>
        <translation>Geben Sie die Nachrichten als JSON-Array ein, z. B. [{&quot;role&quot;: &quot;user&quot;, &quot;content&quot;: &quot;Hallo&quot;}].</translation>
    </message>
    <message>
        <source>Not valid JSON at %1</source>
        <translation>Kein gültiges JSON bei %1</translation>
    </message>
    <message>
        <source>The messages must be a JSON array ([…]), not %1.</source>
        <translation>Die Nachrichten müssen ein JSON-Array ([…]) sein, nicht %1.</translation>
    </message>
    <message>
        <source>These messages cannot be sent: %1</source>
        <translation>Diese Nachrichten können nicht gesendet werden: %1</translation>
    </message>
</context>
<context>
    <name>EditorActions</name>
    <message>
        <source>&amp;Save Script</source>
        <translation>Skript &amp;speichern</translation>
    </message>
    <message>
        <source>Write the script back to its file</source>
        <translation>Das Skript in seine Datei zurückschreiben</translation>
    </message>
    <message>
        <source>&amp;Close File</source>
        <translation>Datei s&amp;chließen</translation>
    </message>
    <message>
        <source>&amp;Find…</source>
        <translation>&amp;Suchen…</translation>
    </message>
    <message>
        <source>Find and &amp;Replace…</source>
        <translation>Suchen und &amp;Ersetzen…</translation>
    </message>
    <message>
        <source>&amp;Go to Line…</source>
        <translation>&amp;Gehe zu Zeile…</translation>
    </message>
    <message>
        <source>Cannot Save Script</source>
        <translation>Skript kann nicht gespeichert werden</translation>
    </message>
    <message>
        <source>Saved %1</source>
        <translation>%1 gespeichert</translation>
    </message>
</context>
<context>
    <name>ExportToolsDialog</name>
    <message>
        <source>Export Tools</source>
        <translation>Tools exportieren</translation>
    </message>
    <message>
        <source>Anthropic</source>
        <translation>Anthropic</translation>
    </message>
    <message>
        <source>OpenAI Chat Completions</source>
        <translation>OpenAI Chat Completions</translation>
    </message>
    <message>
        <source>OpenAI Responses</source>
        <translation>OpenAI Responses</translation>
    </message>
    <message>
        <source>&amp;Format:</source>
        <translation>&amp;Format:</translation>
    </message>
    <message>
        <source>&amp;Strict mode (OpenAI only)</source>
        <translation>&amp;Strict-Modus (nur OpenAI)</translation>
    </message>
    <message>
        <source>OpenAI structured outputs: every property required, optional ones may be null, no extra properties. Tools that cannot be expressed so are listed below.</source>
        <translation>OpenAI Structured Outputs: Jede Eigenschaft ist Pflicht, optionale dürfen null sein, keine zusätzlichen Eigenschaften. Tools, die sich so nicht ausdrücken lassen, stehen unten.</translation>
    </message>
    <message>
        <source>&amp;Copy</source>
        <translation>&amp;Kopieren</translation>
    </message>
    <message>
        <source>Copy the JSON to the clipboard</source>
        <translation>Das JSON in die Zwischenablage kopieren</translation>
    </message>
    <message>
        <source>&amp;Save…</source>
        <translation>&amp;Speichern…</translation>
    </message>
    <message>
        <source>Save the JSON to a file</source>
        <translation>Das JSON in einer Datei speichern</translation>
    </message>
    <message numerus="yes">
        <source>%n tool(s) not exported in this form, and why:</source>
        <translation>
            <numerusform>%n Tool wird in dieser Form nicht exportiert, und warum:</numerusform>
            <numerusform>%n Tools werden in dieser Form nicht exportiert, und warum:</numerusform>
        </translation>
    </message>
    <message>
        <source>%1: cannot write: %2</source>
        <translation>%1: kann nicht geschrieben werden: %2</translation>
    </message>
    <message>
        <source>Save Tool Definitions</source>
        <translation>Tool-Definitionen speichern</translation>
    </message>
    <message>
        <source>JSON files (*.json)</source>
        <translation>JSON-Dateien (*.json)</translation>
    </message>
    <message numerus="yes">
        <source>What this form changed (%n):</source>
        <translation>
            <numerusform>Was diese Form geändert hat (%n):</numerusform>
            <numerusform>Was diese Form geändert hat (%n):</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>FindBar</name>
    <message>
        <source>Find</source>
        <translation>Suchen</translation>
    </message>
    <message>
        <source>Fi&amp;nd:</source>
        <translation>&amp;Suchen:</translation>
    </message>
    <message>
        <source>&amp;Previous</source>
        <translation>&amp;Vorheriger</translation>
    </message>
    <message>
        <source>N&amp;ext</source>
        <translation>&amp;Nächster</translation>
    </message>
    <message>
        <source>&amp;Match case</source>
        <translation>&amp;Groß-/Kleinschreibung</translation>
    </message>
    <message>
        <source>Close (Esc)</source>
        <translation>Schließen (Esc)</translation>
    </message>
    <message>
        <source>Replace with</source>
        <translation>Ersetzen durch</translation>
    </message>
    <message>
        <source>Rep&amp;lace:</source>
        <translation>Erse&amp;tzen:</translation>
    </message>
    <message>
        <source>&amp;Replace</source>
        <translation>&amp;Ersetzen</translation>
    </message>
    <message>
        <source>Replace &amp;All</source>
        <translation>&amp;Alle ersetzen</translation>
    </message>
    <message>
        <source>Not found</source>
        <translation>Nicht gefunden</translation>
    </message>
    <message numerus="yes">
        <source>%n replaced</source>
        <translation>
            <numerusform>%n ersetzt</numerusform>
            <numerusform>%n ersetzt</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>GenerateToolDialog</name>
    <message>
        <source>Generate Tool with AI</source>
        <translation>Tool mit KI generieren</translation>
    </message>
    <message>
        <source>&lt;p&gt;This project has no model that can write code. Add one to &lt;code&gt;models&lt;/code&gt; in toolstudio.json — provider &lt;code&gt;openai-chat&lt;/code&gt; (OpenAI, Ollama, llama.cpp server, vLLM, LM Studio, OpenRouter), &lt;code&gt;anthropic&lt;/code&gt;, or &lt;code&gt;mock&lt;/code&gt; (a scripted answer) — then open this again. A &lt;code&gt;manual&lt;/code&gt; model is a person and cannot write the file.&lt;/p&gt;&lt;p&gt;&lt;a href=&quot;models.md#declaring-models&quot;&gt;How to declare a model&lt;/a&gt;&lt;/p&gt;</source>
        <translation>&lt;p&gt;Dieses Projekt hat kein Modell, das Code schreiben kann. Fügen Sie eines unter &lt;code&gt;models&lt;/code&gt; in toolstudio.json hinzu — Provider &lt;code&gt;openai-chat&lt;/code&gt; (OpenAI, Ollama, llama.cpp server, vLLM, LM Studio, OpenRouter), &lt;code&gt;anthropic&lt;/code&gt; oder &lt;code&gt;mock&lt;/code&gt; (eine vorgegebene Antwort) — und öffnen Sie diesen Dialog dann erneut. Ein &lt;code&gt;manual&lt;/code&gt;-Modell ist eine Person und kann die Datei nicht schreiben.&lt;/p&gt;&lt;p&gt;&lt;a href=&quot;models.md#declaring-models&quot;&gt;So deklarieren Sie ein Modell&lt;/a&gt;&lt;/p&gt;</translation>
    </message>
    <message>
        <source>A &amp;new file: tools/</source>
        <translation>Eine &amp;neue Datei: tools/</translation>
    </message>
    <message>
        <source>The &amp;open file (no Python tool file is open in the editor)</source>
        <translation>Die geö&amp;ffnete Datei (im Editor ist keine Python-Tool-Datei geöffnet)</translation>
    </message>
    <message>
        <source>The &amp;open file: %1</source>
        <translation>Die geö&amp;ffnete Datei: %1</translation>
    </message>
    <message>
        <source>What the tool does, its parameters and what it returns, e.g. &quot;Look up the current weather of a city with the Open-Meteo API; the unit is celsius or fahrenheit.&quot; For the open file: what to change.</source>
        <translation>Was das Tool tut, seine Parameter und was es zurückgibt, z. B. „Das aktuelle Wetter einer Stadt über die Open-Meteo-API abfragen; die Einheit ist celsius oder fahrenheit.“ Für die geöffnete Datei: was geändert werden soll.</translation>
    </message>
    <message>
        <source>&amp;Model:</source>
        <translation>&amp;Modell:</translation>
    </message>
    <message>
        <source>Write:</source>
        <translation>Schreiben:</translation>
    </message>
    <message>
        <source>&amp;Description:</source>
        <translation>&amp;Beschreibung:</translation>
    </message>
    <message>
        <source>The generated file, as a diff against the file as it is, shows here for review before anything is written.</source>
        <translation>Die generierte Datei erscheint hier als Diff zur aktuellen Datei, zur Prüfung, bevor etwas geschrieben wird.</translation>
    </message>
    <message>
        <source>&amp;Generate</source>
        <translation>&amp;Generieren</translation>
    </message>
    <message>
        <source>Ask the model (Ctrl+Return)</source>
        <translation>Das Modell fragen (Strg+Eingabe)</translation>
    </message>
    <message>
        <source>&amp;Accept and Save</source>
        <translation>Übernehmen und &amp;speichern</translation>
    </message>
    <message>
        <source>Write the generated file (Ctrl+Z in the editor undoes a change to an open file)</source>
        <translation>Die generierte Datei schreiben (Strg+Z im Editor macht eine Änderung an einer geöffneten Datei rückgängig)</translation>
    </message>
    <message>
        <source>&amp;Stop</source>
        <translation>S&amp;toppen</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Abbrechen</translation>
    </message>
    <message>
        <source>Stop asking the model; the description stays</source>
        <translation>Das Modell nicht weiter fragen; die Beschreibung bleibt erhalten</translation>
    </message>
    <message>
        <source>There is no model to ask: add one to &quot;models&quot; in toolstudio.json.</source>
        <translation>Es gibt kein Modell, das gefragt werden kann: Fügen Sie eines unter „models“ in toolstudio.json hinzu.</translation>
    </message>
    <message>
        <source>Describe the tool first: what it does, its parameters and what it returns.</source>
        <translation>Beschreiben Sie zuerst das Tool: was es tut, seine Parameter und was es zurückgibt.</translation>
    </message>
    <message>
        <source>Open the Python tool file in the editor, or choose a new file.</source>
        <translation>Öffnen Sie die Python-Tool-Datei im Editor, oder wählen Sie eine neue Datei.</translation>
    </message>
    <message>
        <source>The project has no model named %1 any more; open this dialog again.</source>
        <translation>Das Projekt hat kein Modell namens %1 mehr; öffnen Sie diesen Dialog erneut.</translation>
    </message>
    <message>
        <source>The project is not trusted, so its model %1 is not asked (toolstudio.json decides where your key and your file would go). Trust the project first.</source>
        <translation>Dem Projekt wird nicht vertraut, daher wird sein Modell %1 nicht gefragt (toolstudio.json bestimmt, wohin Ihr Schlüssel und Ihre Datei gingen). Vertrauen Sie zuerst dem Projekt.</translation>
    </message>
    <message>
        <source>%1 Trying again in %2 s (attempt %3 of %4)…</source>
        <translation>%1 Neuer Versuch in %2 s (Versuch %3 von %4)…</translation>
    </message>
    <message>
        <source>Asking %1 for %2…</source>
        <translation>%2 wird bei %1 angefragt…</translation>
    </message>
    <message>
        <source>Stopped. The description is kept: change it or Generate again.</source>
        <translation>Gestoppt. Die Beschreibung bleibt erhalten: Ändern Sie sie, oder generieren Sie erneut.</translation>
    </message>
    <message>
        <source>In the window: Tools ▸ Secrets… (Ctrl+Shift+K).</source>
        <translation>Im Fenster: Tools ▸ Secrets… (Strg+Umschalt+K).</translation>
    </message>
    <message>
        <source>The generated file is the same as %1; nothing to write.</source>
        <translation>Die generierte Datei ist identisch mit %1; nichts zu schreiben.</translation>
    </message>
    <message numerus="yes">
        <source>Review the change to %1: %n line(s) added</source>
        <translation>
            <numerusform>Prüfen Sie die Änderung an %1: %n Zeile hinzugefügt</numerusform>
            <numerusform>Prüfen Sie die Änderung an %1: %n Zeilen hinzugefügt</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>, %n removed. Accept and Save writes it.</source>
        <translation>
            <numerusform>, %n entfernt. „Übernehmen und speichern“ schreibt sie.</numerusform>
            <numerusform>, %n entfernt. „Übernehmen und speichern“ schreibt sie.</numerusform>
        </translation>
    </message>
    <message>
        <source>Careful: the generated code holds control or text-direction characters (shown as \uXXXX in the diff). They can make code read differently than it runs.</source>
        <translation>Vorsicht: Der generierte Code enthält Steuer- oder Textrichtungszeichen (im Diff als \uXXXX dargestellt). Durch sie kann sich Code anders lesen, als er läuft.</translation>
    </message>
    <message>
        <source>%1 is no longer open in the editor; open it and generate again.</source>
        <translation>%1 ist im Editor nicht mehr geöffnet; öffnen Sie die Datei und generieren Sie erneut.</translation>
    </message>
    <message>
        <source>%1 changed in the editor since the code was generated; generate again to review the change against it.</source>
        <translation>%1 wurde im Editor geändert, seit der Code generiert wurde; generieren Sie erneut, um die Änderung gegen den jetzigen Stand zu prüfen.</translation>
    </message>
    <message>
        <source>%1 exists and is different from the generated file (the diff shows how). Replace it?</source>
        <translation>%1 existiert und unterscheidet sich von der generierten Datei (der Diff zeigt, wie). Ersetzen?</translation>
    </message>
    <message>
        <source>%1 exists and changed since the code was generated, so the diff does not show what would be lost. Replace it anyway?</source>
        <translation>%1 existiert und wurde geändert, seit der Code generiert wurde; der Diff zeigt daher nicht, was verloren ginge. Trotzdem ersetzen?</translation>
    </message>
    <message>
        <source>Nothing was written: %1 was kept. Choose another file name.</source>
        <translation>Nichts wurde geschrieben: %1 blieb erhalten. Wählen Sie einen anderen Dateinamen.</translation>
    </message>
    <message>
        <source>Cannot make the folder %1.</source>
        <translation>Der Ordner %1 kann nicht angelegt werden.</translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>%1 kann nicht geschrieben werden: %2</translation>
    </message>
</context>
<context>
    <name>HandlerSettingsForm</name>
    <message>
        <source>Kind:</source>
        <translation>Art:</translation>
    </message>
    <message>
        <source>Active:</source>
        <translation>Aktiv:</translation>
    </message>
    <message>
        <source>Mock sequence:</source>
        <translation>Mock-Folge:</translation>
    </message>
    <message>
        <source>JSON array; entry i answers the i-th attempt: {&quot;result&quot;: …} or {&quot;error&quot;: &quot;…&quot;, &quot;retryable&quot;: true}, optionally &quot;delay_seconds&quot;</source>
        <translation>JSON-Array; Eintrag i beantwortet den i-ten Versuch: {&quot;result&quot;: …} oder {&quot;error&quot;: &quot;…&quot;, &quot;retryable&quot;: true}, optional &quot;delay_seconds&quot;</translation>
    </message>
    <message>
        <source>&amp;Apply Sequence</source>
        <translation>Folge &amp;übernehmen</translation>
    </message>
    <message>
        <source>Command line:</source>
        <translation>Befehlszeile:</translation>
    </message>
    <message>
        <source>Program, then arguments; quote an argument with spaces in &quot;…&quot;</source>
        <translation>Programm, dann Argumente; ein Argument mit Leerzeichen in &quot;…&quot; setzen</translation>
    </message>
    <message>
        <source>Max attempts:</source>
        <translation>Max. Versuche:</translation>
    </message>
    <message>
        <source>Attempts per call, the first included (at least 1)</source>
        <translation>Versuche pro Aufruf, der erste mitgezählt (mindestens 1)</translation>
    </message>
    <message>
        <source>Initial backoff (s):</source>
        <translation>Erste Wartezeit (s):</translation>
    </message>
    <message>
        <source>Wait before the second attempt, in seconds</source>
        <translation>Wartezeit vor dem zweiten Versuch, in Sekunden</translation>
    </message>
    <message>
        <source>Backoff factor:</source>
        <translation>Wartezeit-Faktor:</translation>
    </message>
    <message>
        <source>Each wait is the previous one times this (at least 1)</source>
        <translation>Jede Wartezeit ist die vorige mal diesem Wert (mindestens 1)</translation>
    </message>
    <message>
        <source>Backoff cap (s):</source>
        <translation>Längste Wartezeit (s):</translation>
    </message>
    <message>
        <source>No wait is longer than this, in seconds</source>
        <translation>Keine Wartezeit ist länger als dies, in Sekunden</translation>
    </message>
    <message>
        <source>Jitter:</source>
        <translation>Zufallsanteil:</translation>
    </message>
    <message>
        <source>Fraction of each wait added or removed at random (0 to 1)</source>
        <translation>Anteil jeder Wartezeit, der zufällig hinzukommt oder wegfällt (0 bis 1)</translation>
    </message>
    <message>
        <source>Attempt timeout (s):</source>
        <translation>Versuchs-Timeout (s):</translation>
    </message>
    <message>
        <source>One attempt, in seconds; 0 = no bound</source>
        <translation>Ein Versuch, in Sekunden; 0 = keine Grenze</translation>
    </message>
    <message>
        <source>Total timeout (s):</source>
        <translation>Gesamt-Timeout (s):</translation>
    </message>
    <message>
        <source>The whole call from its first attempt, in seconds; 0 = no bound</source>
        <translation>Der ganze Aufruf ab seinem ersten Versuch, in Sekunden; 0 = keine Grenze</translation>
    </message>
    <message>
        <source>A field is saved to toolstudio.json when you press Enter or leave it; Edit ▸ Undo takes it back.</source>
        <translation>Ein Feld wird in toolstudio.json gespeichert, wenn Sie die Eingabetaste drücken oder es verlassen; Bearbeiten ▸ Rückgängig nimmt es zurück.</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>ja</translation>
    </message>
    <message>
        <source>no (refused on the bridge; the Project dock&apos;s checkbox)</source>
        <translation>nein (auf der Bridge abgelehnt; Kontrollkästchen im Projekt-Dock)</translation>
    </message>
    <message>
        <source>Answer wait bound (s):</source>
        <translation>Wartegrenze für Antwort (s):</translation>
    </message>
    <message>
        <source>How long one attempt waits for a person, in seconds; 0 = no bound</source>
        <translation>Wie lange ein Versuch auf eine Person wartet, in Sekunden; 0 = keine Grenze</translation>
    </message>
    <message>
        <source>Not valid JSON: %1</source>
        <translation>Kein gültiges JSON: %1</translation>
    </message>
    <message>
        <source>Set the mock sequence of %1</source>
        <translation>Mock-Folge von %1 setzen</translation>
    </message>
    <message>
        <source>Give the program to run, then its arguments.</source>
        <translation>Geben Sie das auszuführende Programm an, dann seine Argumente.</translation>
    </message>
    <message>
        <source>Set the command line of %1</source>
        <translation>Befehlszeile von %1 setzen</translation>
    </message>
    <message>
        <source>Enter a number.</source>
        <translation>Geben Sie eine Zahl ein.</translation>
    </message>
    <message>
        <source>“%1” is not a number.</source>
        <translation>„%1“ ist keine Zahl.</translation>
    </message>
    <message>
        <source>Enter a whole number.</source>
        <translation>Geben Sie eine ganze Zahl ein.</translation>
    </message>
    <message>
        <source>Must be between %1 and %2.</source>
        <translation>Muss zwischen %1 und %2 liegen.</translation>
    </message>
    <message>
        <source>Must be at least %1.</source>
        <translation>Muss mindestens %1 sein.</translation>
    </message>
    <message>
        <source>Set %1 of %2 to %3</source>
        <translation>%1 von %2 auf %3 setzen</translation>
    </message>
</context>
<context>
    <name>HelpMenu</name>
    <message>
        <source>&amp;Getting Started</source>
        <translation>&amp;Erste Schritte</translation>
    </message>
    <message>
        <source>The first ten minutes: make a project, run it, read the trace</source>
        <translation>Die ersten zehn Minuten: ein Projekt anlegen, ausführen, den Ablauf lesen</translation>
    </message>
    <message>
        <source>&amp;Keyboard Shortcuts</source>
        <translation>&amp;Tastenkürzel</translation>
    </message>
    <message>
        <source>Every command that has a shortcut, and its menu</source>
        <translation>Jeder Befehl mit Tastenkürzel und sein Menü</translation>
    </message>
    <message>
        <source>&amp;Examples</source>
        <translation>Bei&amp;spiele</translation>
    </message>
    <message>
        <source>&amp;About Tool Studio</source>
        <translation>Ü&amp;ber Tool Studio</translation>
    </message>
    <message>
        <source>About Tool Studio</source>
        <translation>Über Tool Studio</translation>
    </message>
    <message>
        <source>&lt;h3&gt;Tool Studio %1&lt;/h3&gt;&lt;p&gt;Build and debug the tools that LLM agents call, and the agent scripts that call them.&lt;/p&gt;&lt;p&gt;License: GPL-3.0-or-later.&lt;/p&gt;</source>
        <translation>&lt;h3&gt;Tool Studio %1&lt;/h3&gt;&lt;p&gt;Tools, die LLM-Agenten aufrufen, und die Agentenskripte, die sie aufrufen, bauen und debuggen.&lt;/p&gt;&lt;p&gt;Lizenz: GPL-3.0-or-later.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Getting Started</source>
        <translation>Erste Schritte</translation>
    </message>
    <message>
        <source>&lt;h2&gt;Your first ten minutes&lt;/h2&gt;&lt;ol&gt;&lt;li&gt;&lt;b&gt;Make a project.&lt;/b&gt; File ▸ New Project… (Ctrl+Shift+N): choose a new folder and a template. &lt;i&gt;Exchange rate&lt;/i&gt; is the smallest that calls a tool; Help ▸ Examples makes a copy of any example.&lt;/li&gt;&lt;li&gt;&lt;b&gt;Run it.&lt;/b&gt; Press Run (F5). The script runs in a sandbox; each tool call it makes appears as a step in the Trace on the right, and what it prints in the Console below the editor.&lt;/li&gt;&lt;li&gt;&lt;b&gt;Read a step.&lt;/b&gt; Click a row of the trace: the Step tab on the left shows its arguments, result or error and every attempt. Ctrl+E jumps to the next step that failed.&lt;/li&gt;&lt;li&gt;&lt;b&gt;Answer by hand.&lt;/b&gt; A manual tool (try the &lt;i&gt;Render report&lt;/i&gt; example) waits for a person: the Pending Calls tab shows a form; fill it and press Send Result.&lt;/li&gt;&lt;li&gt;&lt;b&gt;Step through.&lt;/b&gt; Step Mode (F10) holds every call before it runs: Continue (F7), answer instead, or fail it.&lt;/li&gt;&lt;li&gt;&lt;b&gt;Add your own.&lt;/b&gt; File ▸ New Tool… adds a tool file from a template, File ▸ New Script… an agent script; both open in the editor.&lt;/li&gt;&lt;/ol&gt;&lt;p&gt;A project you did not make here opens restricted: nothing of it runs until you choose Trust Project in the bar above the editor.&lt;/p&gt;&lt;p&gt;Every shortcut: Help ▸ Keyboard Shortcuts. From a terminal: &lt;tt&gt;toolstudio help&lt;/tt&gt;.&lt;/p&gt;</source>
        <translation>&lt;h2&gt;Ihre ersten zehn Minuten&lt;/h2&gt;&lt;ol&gt;&lt;li&gt;&lt;b&gt;Ein Projekt anlegen.&lt;/b&gt; Datei ▸ Neues Projekt… (Strg+Umschalt+N): einen neuen Ordner und eine Vorlage wählen. &lt;i&gt;Wechselkurs&lt;/i&gt; ist die kleinste, die ein Tool aufruft; Hilfe ▸ Beispiele legt eine Kopie jedes Beispiels an.&lt;/li&gt;&lt;li&gt;&lt;b&gt;Ausführen.&lt;/b&gt; Drücken Sie Ausführen (F5). Das Skript läuft in einer Sandbox; jeder Tool-Aufruf erscheint als Schritt im Ablauf rechts, seine Ausgabe in der Konsole unter dem Editor.&lt;/li&gt;&lt;li&gt;&lt;b&gt;Einen Schritt lesen.&lt;/b&gt; Klicken Sie auf eine Zeile des Ablaufs: der Reiter Schritt links zeigt Argumente, Ergebnis oder Fehler und jeden Versuch. Strg+E springt zum nächsten fehlgeschlagenen Schritt.&lt;/li&gt;&lt;li&gt;&lt;b&gt;Von Hand antworten.&lt;/b&gt; Ein manuelles Tool (etwa im Beispiel &lt;i&gt;Render report&lt;/i&gt;) wartet auf einen Menschen: der Reiter Wartende Aufrufe zeigt ein Formular; füllen Sie es aus und drücken Sie Ergebnis senden.&lt;/li&gt;&lt;li&gt;&lt;b&gt;Schritt für Schritt.&lt;/b&gt; Der Schrittmodus (F10) hält jeden Aufruf an, bevor er läuft: Fortsetzen (F7), stattdessen antworten oder ihn fehlschlagen lassen.&lt;/li&gt;&lt;li&gt;&lt;b&gt;Eigenes hinzufügen.&lt;/b&gt; Datei ▸ Neues Tool… legt eine Tool-Datei aus einer Vorlage an, Datei ▸ Neues Skript… ein Agentenskript; beide öffnen sich im Editor.&lt;/li&gt;&lt;/ol&gt;&lt;p&gt;Ein Projekt, das Sie nicht hier angelegt haben, öffnet eingeschränkt: nichts davon läuft, bis Sie in der Leiste über dem Editor Projekt vertrauen wählen.&lt;/p&gt;&lt;p&gt;Alle Tastenkürzel: Hilfe ▸ Tastenkürzel. Im Terminal: &lt;tt&gt;toolstudio help&lt;/tt&gt;.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&amp;Documentation</source>
        <translation>&amp;Dokumentation</translation>
    </message>
    <message>
        <source>The user guide: tools, scripts, the trace, durable runs, MCP, models, serving</source>
        <translation>Das Benutzerhandbuch: Tools, Skripte, der Ablauf, dauerhafte Läufe, MCP, Modelle, Bereitstellen</translation>
    </message>
    <message>
        <source>&lt;p&gt;The whole guide, page by page: Help ▸ Documentation (Shift+F1).&lt;/p&gt;</source>
        <translation>&lt;p&gt;Das ganze Handbuch, Seite für Seite: Hilfe ▸ Dokumentation (Umschalt+F1).&lt;/p&gt;</translation>
    </message>
</context>
<context>
    <name>JsonTreeModel</name>
    <message>
        <source>[1 item]</source>
        <translation>[1 Element]</translation>
    </message>
    <message>
        <source>[%1 items]</source>
        <translation>[%1 Elemente]</translation>
    </message>
    <message>
        <source>{1 key}</source>
        <translation>{1 Schlüssel}</translation>
    </message>
    <message>
        <source>{%1 keys}</source>
        <translation>{%1 Schlüssel}</translation>
    </message>
    <message>
        <source>%1 characters; choose &quot;Show All&quot; to see the whole string</source>
        <translation>%1 Zeichen; „Alles zeigen“ zeigt die ganze Zeichenkette</translation>
    </message>
    <message>
        <source>Key</source>
        <translation>Schlüssel</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>Wert</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <source>Open a project to start (File ▸ Open Project…)</source>
        <translation>Öffnen Sie ein Projekt, um zu beginnen (Datei ▸ Projekt öffnen…)</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>&amp;Beenden</translation>
    </message>
    <message>
        <source>&amp;Run</source>
        <translation>&amp;Ausführen</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>&amp;Datei</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>&amp;Ansicht</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>&amp;Hilfe</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>Ausführen</translation>
    </message>
    <message>
        <source>Script:</source>
        <translation>Skript:</translation>
    </message>
    <message>
        <source>Trace</source>
        <translation>Ablauf</translation>
    </message>
    <message>
        <source>Console</source>
        <translation>Konsole</translation>
    </message>
    <message>
        <source>Open Project</source>
        <translation>Projekt öffnen</translation>
    </message>
    <message>
        <source>Stop the run before opening another project.</source>
        <translation>Stoppen Sie den Lauf, bevor Sie ein anderes Projekt öffnen.</translation>
    </message>
    <message>
        <source>Cannot Open Project</source>
        <translation>Projekt kann nicht geöffnet werden</translation>
    </message>
    <message>
        <source>The project has no script.</source>
        <translation>Das Projekt hat kein Skript.</translation>
    </message>
    <message>
        <source>Ready</source>
        <translation>Bereit</translation>
    </message>
    <message>
        <source>Cannot Open Script</source>
        <translation>Skript kann nicht geöffnet werden</translation>
    </message>
    <message>
        <source>Cannot Run</source>
        <translation>Ausführen nicht möglich</translation>
    </message>
    <message>
        <source>Failed: %1</source>
        <translation>Fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>&amp;Preferences…</source>
        <translation>&amp;Einstellungen…</translation>
    </message>
    <message>
        <source>&amp;Edit</source>
        <translation>&amp;Bearbeiten</translation>
    </message>
    <message>
        <source>&amp;Tools</source>
        <translation>&amp;Tools</translation>
    </message>
    <message>
        <source>Project</source>
        <translation>Projekt</translation>
    </message>
    <message>
        <source>Tool</source>
        <translation>Tool</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>Schritt</translation>
    </message>
    <message>
        <source>Pending Calls</source>
        <translation>Wartende Aufrufe</translation>
    </message>
    <message>
        <source>Runs</source>
        <translation>Läufe</translation>
    </message>
    <message>
        <source>Project Already Open</source>
        <translation>Projekt bereits geöffnet</translation>
    </message>
    <message>
        <source>toolstudio.json: %1</source>
        <translation>toolstudio.json: %1</translation>
    </message>
    <message>
        <source>The language changes the next time Tool Studio starts.</source>
        <translation>Die Sprache ändert sich beim nächsten Start von Tool Studio.</translation>
    </message>
    <message>
        <source>Pending Calls (%1)</source>
        <translation>Wartende Aufrufe (%1)</translation>
    </message>
    <message>
        <source>Cannot Trust Project</source>
        <translation>Projekt kann nicht als vertrauenswürdig markiert werden</translation>
    </message>
    <message>
        <source>The project is trusted: its tools load and it may run.</source>
        <translation>Dem Projekt wird vertraut: Seine Tools werden geladen, und es darf laufen.</translation>
    </message>
    <message>
        <source>%1 has no toolstudio.json, so it is not a Tool Studio project yet. Make one here from a template:</source>
        <translation>%1 hat keine toolstudio.json und ist daher noch kein Tool-Studio-Projekt. Hier eines aus einer Vorlage anlegen:</translation>
    </message>
    <message>
        <source>MCP Servers</source>
        <translation>MCP-Server</translation>
    </message>
</context>
<context>
    <name>ManifestEditor</name>
    <message>
        <source>New Tool</source>
        <translation>Neues Tool</translation>
    </message>
    <message>
        <source>Name of the new mock tool:</source>
        <translation>Name des neuen Mock-Tools:</translation>
    </message>
    <message>
        <source>New tool %1</source>
        <translation>Neues Tool %1</translation>
    </message>
    <message>
        <source>Rename Tool</source>
        <translation>Tool umbenennen</translation>
    </message>
    <message>
        <source>New name for %1:</source>
        <translation>Neuer Name für %1:</translation>
    </message>
    <message>
        <source>Rename %1 to %2</source>
        <translation>%1 in %2 umbenennen</translation>
    </message>
    <message>
        <source>Clone %1</source>
        <translation>%1 klonen</translation>
    </message>
    <message>
        <source>&amp;Undo</source>
        <translation>&amp;Rückgängig</translation>
    </message>
    <message>
        <source>&amp;Redo</source>
        <translation>&amp;Wiederholen</translation>
    </message>
    <message>
        <source>New &amp;Mock Tool…</source>
        <translation>Neues &amp;Mock-Tool…</translation>
    </message>
    <message>
        <source>Add a mock tool to toolstudio.json</source>
        <translation>Ein Mock-Tool zu toolstudio.json hinzufügen</translation>
    </message>
</context>
<context>
    <name>McpAcceptedTools</name>
    <message>
        <source>%1 cannot be used: %2</source>
        <translation>%1 kann nicht verwendet werden: %2</translation>
    </message>
    <message>
        <source>it is not a regular file</source>
        <translation>es ist keine reguläre Datei</translation>
    </message>
    <message>
        <source>it has %1 bytes, more than the %2 the studio reads</source>
        <translation>es hat %1 Bytes, mehr als die %2, die das Studio liest</translation>
    </message>
    <message>
        <source>it has more than the %1 bytes the studio reads</source>
        <translation>es hat mehr als die %1 Bytes, die das Studio liest</translation>
    </message>
    <message>
        <source>it is not a record of accepted tools (a JSON object with &quot;version&quot;: 1 and &quot;servers&quot;)</source>
        <translation>es ist kein Verzeichnis akzeptierter Tools (ein JSON-Objekt mit &quot;version&quot;: 1 und &quot;servers&quot;)</translation>
    </message>
    <message>
        <source>it names more than %1 servers</source>
        <translation>es nennt mehr als %1 Server</translation>
    </message>
    <message>
        <source>server &quot;%1&quot; has no &quot;tools&quot; object</source>
        <translation>Server &quot;%1&quot; hat kein &quot;tools&quot;-Objekt</translation>
    </message>
    <message>
        <source>server &quot;%1&quot; has more than %2 tools</source>
        <translation>Server &quot;%1&quot; hat mehr als %2 Tools</translation>
    </message>
    <message>
        <source>tool &quot;%1&quot; of server &quot;%2&quot; has no &quot;definition&quot; object and &quot;sha256&quot;</source>
        <translation>Tool &quot;%1&quot; von Server &quot;%2&quot; hat kein &quot;definition&quot;-Objekt und kein &quot;sha256&quot;</translation>
    </message>
    <message>
        <source>the sha256 of tool &quot;%1&quot; of server &quot;%2&quot; does not match its definition</source>
        <translation>der sha256 von Tool &quot;%1&quot; von Server &quot;%2&quot; passt nicht zu seiner Definition</translation>
    </message>
    <message>
        <source>cannot create %1</source>
        <translation>%1 kann nicht angelegt werden</translation>
    </message>
    <message>
        <source>%1 cannot be used and cannot be kept aside as %2; move it away and try again</source>
        <translation>%1 kann nicht verwendet und nicht als %2 beiseitegelegt werden; verschieben Sie es und versuchen Sie es erneut</translation>
    </message>
    <message>
        <source>%1; it was kept as %2 and a new record written</source>
        <translation>%1; es wurde als %2 aufbewahrt und ein neues Verzeichnis geschrieben</translation>
    </message>
    <message>
        <source>%1: cannot write: %2</source>
        <translation>%1: kann nicht geschrieben werden: %2</translation>
    </message>
    <message>
        <source>%1 is a symbolic link; the studio neither reads nor writes the record through one</source>
        <translation>%1 ist ein symbolischer Link; das Studio liest und schreibt das Verzeichnis nicht durch einen solchen</translation>
    </message>
    <message>
        <source>%1 is a symbolic link; the studio does not write the record through one: remove it and try again</source>
        <translation>%1 ist ein symbolischer Link; das Studio schreibt das Verzeichnis nicht durch einen solchen: entfernen Sie ihn und versuchen Sie es erneut</translation>
    </message>
    <message>
        <source>%1 cannot be used, and %2 unusable records are kept aside already (%3.bad …): remove them and try again</source>
        <translation>%1 ist nicht verwendbar, und %2 unbrauchbare Verzeichnisse sind bereits beiseitegelegt (%3.bad …): entfernen Sie sie und versuchen Sie es erneut</translation>
    </message>
    <message>
        <source>MCP tool &apos;%1&apos; cannot be accepted: the accepted definitions of MCP server &apos;%2&apos; would be %3 bytes, more than the %4 the record keeps for one server</source>
        <translation>MCP-Tool &apos;%1&apos; kann nicht akzeptiert werden: die akzeptierten Definitionen des MCP-Servers &apos;%2&apos; wären %3 Bytes groß, mehr als die %4, die das Verzeichnis für einen Server speichert</translation>
    </message>
    <message>
        <source>%1: the record would not read back (%2); nothing was written</source>
        <translation>%1: das Verzeichnis ließe sich nicht wieder lesen (%2); nichts wurde geschrieben</translation>
    </message>
</context>
<context>
    <name>McpCallProgress</name>
    <message>
        <source>MCP progress: %1 notification(s), the last: %2</source>
        <translation>MCP-Fortschritt: %1 Meldung(en), die letzte: %2</translation>
    </message>
</context>
<context>
    <name>McpCallProtocol</name>
    <message>
        <source>attempt %1 protocol:</source>
        <translation>Versuch %1, Protokoll:</translation>
    </message>
</context>
<context>
    <name>McpCompletion</name>
    <message>
        <source>the server&apos;s completion/complete result has no &quot;completion&quot; object with a &quot;values&quot; array</source>
        <translation>das Ergebnis von completion/complete des Servers hat kein Objekt „completion“ mit einem Array „values“</translation>
    </message>
    <message>
        <source>the server is not connected</source>
        <translation>der Server ist nicht verbunden</translation>
    </message>
    <message>
        <source>the server declares &quot;completions&quot; but answers completion/complete with %1</source>
        <translation>der Server gibt „completions“ an, beantwortet completion/complete aber mit %1</translation>
    </message>
</context>
<context>
    <name>McpCompletionField</name>
    <message>
        <source>Completions failed: %1</source>
        <translation>Vervollständigung fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>The server has %1 values; the first %2 are offered: type more to narrow them.</source>
        <translation>Der Server hat %1 Werte; die ersten %2 werden angeboten: tippen Sie weiter, um sie einzugrenzen.</translation>
    </message>
    <message>
        <source>The server has more values than it offered: type more to narrow them.</source>
        <translation>Der Server hat mehr Werte, als er angeboten hat: tippen Sie weiter, um sie einzugrenzen.</translation>
    </message>
    <message numerus="yes">
        <source>%n value(s) of the server left out (not text, empty, repeated, longer than %1 characters or with control characters).</source>
        <translation>
            <numerusform>%n Wert des Servers ausgelassen (kein Text, leer, wiederholt, länger als %1 Zeichen oder mit Steuerzeichen).</numerusform>
            <numerusform>%n Werte des Servers ausgelassen (kein Text, leer, wiederholt, länger als %1 Zeichen oder mit Steuerzeichen).</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>McpElicitationRequired</name>
    <message>
        <source>it still asks for pages to be opened after %1 rounds; Tool Studio stopped there</source>
        <translation>es verlangt nach %1 Runden weiterhin, Seiten zu öffnen; Tool Studio hat dort aufgehört</translation>
    </message>
    <message>
        <source>its error lists no page to open (&quot;data.elicitations&quot; is not a non-empty array)</source>
        <translation>sein Fehler nennt keine zu öffnende Seite (&quot;data.elicitations&quot; ist kein nicht leeres Array)</translation>
    </message>
    <message>
        <source>its error lists %1 pages to open; Tool Studio asks a person at most %2 per call</source>
        <translation>sein Fehler nennt %1 zu öffnende Seiten; Tool Studio fragt eine Person höchstens %2 pro Aufruf</translation>
    </message>
    <message>
        <source>Tool Studio asks a person to open a page only while a tool of this server is called through it</source>
        <translation>Tool Studio bittet eine Person nur dann, eine Seite zu öffnen, wenn gerade ein Tool dieses Servers darüber aufgerufen wird</translation>
    </message>
    <message>
        <source>elicitation %1 of %2</source>
        <translation>Rückfrage %1 von %2</translation>
    </message>
    <message>
        <source>%1 is not a URL-mode one (&quot;mode&quot;: &quot;url&quot;); this error lists only pages to open</source>
        <translation>%1 ist keine im URL-Modus (&quot;mode&quot;: &quot;url&quot;); dieser Fehler nennt nur zu öffnende Seiten</translation>
    </message>
    <message>
        <source>the page on %1 was not opened: %2</source>
        <translation>die Seite auf %1 wurde nicht geöffnet: %2</translation>
    </message>
    <message>
        <source>the person declined to open the page on %1</source>
        <translation>die Person hat abgelehnt, die Seite auf %1 zu öffnen</translation>
    </message>
    <message>
        <source>the person cancelled, the page on %1 was not opened</source>
        <translation>die Person hat abgebrochen, die Seite auf %1 wurde nicht geöffnet</translation>
    </message>
    <message>
        <source>the answer for the page on %1 is not accept, decline or cancel</source>
        <translation>die Antwort für die Seite auf %1 ist weder accept noch decline noch cancel</translation>
    </message>
</context>
<context>
    <name>McpExchangeText</name>
    <message>
        <source> (%1 bytes, clipped)</source>
        <translation> (%1 Bytes, gekürzt)</translation>
    </message>
    <message>
        <source>+%1 ms</source>
        <translation>+%1 ms</translation>
    </message>
    <message>
        <source>(a message of %1 bytes; its first %2 bytes of compact JSON:)
%3</source>
        <translation>(eine Nachricht mit %1 Bytes; ihre ersten %2 Bytes als kompaktes JSON:)
%3</translation>
    </message>
    <message>
        <source>%1 more messages, %2 bytes, not kept</source>
        <translation>%1 weitere Nachrichten, %2 Bytes, nicht aufbewahrt</translation>
    </message>
</context>
<context>
    <name>McpHandler</name>
    <message>
        <source>MCP server &apos;%1&apos; answered with an error: %2</source>
        <translation>MCP-Server &apos;%1&apos; antwortete mit einem Fehler: %2</translation>
    </message>
    <message>
        <source>MCP server &apos;%1&apos; answered tools/call with a result that is not an object</source>
        <translation>MCP-Server &apos;%1&apos; beantwortete tools/call mit einem Ergebnis, das kein Objekt ist</translation>
    </message>
    <message>
        <source>MCP server &apos;%1&apos; reported an error without text</source>
        <translation>MCP-Server &apos;%1&apos; meldete einen Fehler ohne Text</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not an MCP tool name (SERVER__TOOL)</source>
        <translation>&apos;%1&apos; ist kein MCP-Werkzeugname (SERVER__TOOL)</translation>
    </message>
    <message>
        <source>%1 requests of this call already wait for a person; Tool Studio refuses more</source>
        <translation>%1 Anfragen dieses Aufrufs warten bereits auf eine Person; Tool Studio lehnt weitere ab</translation>
    </message>
    <message>
        <source>this server withdrew %1 questions of this call; Tool Studio asks a person no more</source>
        <translation>dieser Server hat %1 Fragen dieses Aufrufs zurückgezogen; Tool Studio fragt keine Person mehr</translation>
    </message>
    <message>
        <source>MCP server &apos;%1&apos; needs a person to open a page first (URL elicitation, -32042): %2</source>
        <translation>MCP-Server &apos;%1&apos; braucht zuerst eine Person, die eine Seite öffnet (URL-Rückfrage, -32042): %2</translation>
    </message>
    <message>
        <source>MCP tool &apos;%1&apos; was not accepted: %2</source>
        <translation>MCP-Werkzeug „%1“ wurde nicht angenommen: %2</translation>
    </message>
</context>
<context>
    <name>McpImportFolders</name>
    <message>
        <source> and %1 more</source>
        <translation> und %1 weitere</translation>
    </message>
    <message>
        <source>%1: a folder outside the project cannot be granted — a confined server reads only folders in the project, and the filesystem server takes the studio&apos;s roots in place of the folders in its args. Copy the folder into the project and name it in sandbox.read (docs/mcp.md &quot;Confined servers&quot;)</source>
        <translation>%1: ein Ordner außerhalb des Projekts kann nicht freigegeben werden — ein eingeschränkter Server liest nur Ordner im Projekt, und der Dateisystem-Server nimmt die Roots des Studios anstelle der Ordner in seinen args. Kopieren Sie den Ordner ins Projekt und nennen Sie ihn in sandbox.read (docs/mcp.md „Confined servers“)</translation>
    </message>
</context>
<context>
    <name>McpInputQuestionView</name>
    <message>
        <source>the window that asked was closed</source>
        <translation>das Fenster, das gefragt hat, wurde geschlossen</translation>
    </message>
    <message>
        <source>another request of the window took over its question</source>
        <translation>eine andere Anfrage des Fensters hat seine Frage übernommen</translation>
    </message>
    <message>
        <source>the server&apos;s question is no longer open</source>
        <translation>die Frage des Servers ist nicht mehr offen</translation>
    </message>
    <message>
        <source>the server withdrew that question: read the new one and answer again</source>
        <translation>der Server hat diese Frage zurückgezogen: lesen Sie die neue und antworten Sie erneut</translation>
    </message>
    <message>
        <source>you cancelled the server&apos;s question, so the request ended</source>
        <translation>Sie haben die Frage des Servers abgebrochen, daher wurde die Anfrage beendet</translation>
    </message>
    <message>
        <source>the server&apos;s question is no longer open (its request ended)</source>
        <translation>die Frage des Servers ist nicht mehr offen (ihre Anfrage ist beendet)</translation>
    </message>
    <message>
        <source>MCP server &lt;b&gt;%1&lt;/b&gt; asks a person for input to answer &lt;b&gt;%2&lt;/b&gt;</source>
        <translation>MCP-Server &lt;b&gt;%1&lt;/b&gt; bittet eine Person um Eingaben, um &lt;b&gt;%2&lt;/b&gt; zu beantworten</translation>
    </message>
    <message>
        <source>MCP server &lt;b&gt;%1&lt;/b&gt; asks a person to write a model&apos;s reply to answer &lt;b&gt;%2&lt;/b&gt;</source>
        <translation>MCP-Server &lt;b&gt;%1&lt;/b&gt; bittet eine Person, die Antwort eines Modells zu schreiben, um &lt;b&gt;%2&lt;/b&gt; zu beantworten</translation>
    </message>
    <message numerus="yes">
        <source>%n more question(s) after this one.</source>
        <translation>
            <numerusform>Nach dieser noch %n weitere Frage.</numerusform>
            <numerusform>Nach dieser noch %n weitere Fragen.</numerusform>
        </translation>
    </message>
    <message>
        <source>The request waits for your answer; Cancel ends it.</source>
        <translation>Die Anfrage wartet auf Ihre Antwort; Abbrechen beendet sie.</translation>
    </message>
</context>
<context>
    <name>McpInputRequiredRounds</name>
    <message>
        <source>it asks for %1, which nobody can answer in a command: do it in Tool Studio&apos;s Resources and Prompts window (MCP Servers dock, Browse…), which asks you</source>
        <translation>sie fragt nach %1, was in einem Befehl niemand beantworten kann: tun Sie es im Fenster „Ressourcen und Prompts“ von Tool Studio (Dock „MCP-Server“, Durchsuchen…), das Sie fragt</translation>
    </message>
</context>
<context>
    <name>McpParamHeaders</name>
    <message>
        <source>the schema&apos;s root</source>
        <translation>die Wurzel des Schemas</translation>
    </message>
    <message>
        <source>property &apos;%1&apos;</source>
        <translation>Eigenschaft „%1“</translation>
    </message>
    <message>
        <source>the inputSchema is nested deeper than %1 levels</source>
        <translation>das inputSchema ist tiefer als %1 Ebenen verschachtelt</translation>
    </message>
    <message>
        <source>%1 has x-mcp-header but is not reached from the schema&apos;s root through &apos;properties&apos; alone (not under items, anyOf/oneOf/allOf/not, if/then/else, $defs or $ref)</source>
        <translation>%1 hat x-mcp-header, ist von der Wurzel des Schemas aber nicht allein über „properties“ erreichbar (nicht unter items, anyOf/oneOf/allOf/not, if/then/else, $defs oder $ref)</translation>
    </message>
    <message>
        <source>%1: its x-mcp-header is longer than %2 characters (a header name that long makes every call of the tool fail: 431 from the server)</source>
        <translation>%1: sein x-mcp-header ist länger als %2 Zeichen (ein so langer Header-Name lässt jeden Aufruf des Werkzeugs scheitern: 431 vom Server)</translation>
    </message>
    <message>
        <source>%1: its x-mcp-header is not an HTTP header name (letters, digits and !#$%&amp;&apos;*+-.^_`|~, not empty)</source>
        <translation>%1: sein x-mcp-header ist kein HTTP-Header-Name (Buchstaben, Ziffern und !#$%&amp;&apos;*+-.^_`|~, nicht leer)</translation>
    </message>
    <message>
        <source>%1: x-mcp-header is only for a property of type string, integer or boolean</source>
        <translation>%1: x-mcp-header gilt nur für eine Eigenschaft vom Typ string, integer oder boolean</translation>
    </message>
    <message>
        <source>%1: x-mcp-header &apos;%2&apos; is used by another property too (names are compared without case)</source>
        <translation>%1: x-mcp-header „%2“ wird auch von einer anderen Eigenschaft verwendet (Namen werden ohne Groß-/Kleinschreibung verglichen)</translation>
    </message>
    <message>
        <source>more than %1 properties have x-mcp-header</source>
        <translation>mehr als %1 Eigenschaften haben x-mcp-header</translation>
    </message>
    <message>
        <source>not sent: the arguments the tool mirrors into HTTP headers (x-mcp-header) come to %1 bytes as headers, the largest %2 with a value of %3 bytes; at most %4 go into a request&apos;s headers, as servers refuse larger ones: pass shorter values</source>
        <translation>nicht gesendet: die Argumente, die das Werkzeug in HTTP-Header spiegelt (x-mcp-header), ergeben %1 Bytes an Headern, der größte %2 mit einem Wert von %3 Bytes; höchstens %4 passen in die Header einer Anfrage, da Server größere ablehnen: übergeben Sie kürzere Werte</translation>
    </message>
</context>
<context>
    <name>McpProjectTools</name>
    <message>
        <source>MCP tool &apos;%1&apos;: not a valid tool name, scripts cannot call it (%2)</source>
        <translation>MCP-Werkzeug &apos;%1&apos;: kein gültiger Werkzeugname, Skripte können es nicht aufrufen (%2)</translation>
    </message>
    <message>
        <source>MCP tool &apos;%1&apos;: its inputSchema does not compile: %2</source>
        <translation>MCP-Werkzeug &apos;%1&apos;: sein inputSchema lässt sich nicht übersetzen: %2</translation>
    </message>
    <message>
        <source>MCP tool &apos;%1&apos;: its outputSchema does not compile: %2</source>
        <translation>MCP-Werkzeug &apos;%1&apos;: sein outputSchema lässt sich nicht übersetzen: %2</translation>
    </message>
    <message>
        <source>MCP server &apos;%1&apos; %2: %3</source>
        <translation>MCP-Server &apos;%1&apos; %2: %3</translation>
    </message>
    <message>
        <source>MCP tool &apos;%1&apos;: the project already declares a tool of that name; the MCP tool is left out</source>
        <translation>MCP-Werkzeug &apos;%1&apos;: das Projekt deklariert bereits ein Werkzeug dieses Namens; das MCP-Werkzeug wird ausgelassen</translation>
    </message>
    <message>
        <source>MCP server &apos;%1&apos; lists the tool &apos;%2&apos; more than once; the first is kept</source>
        <translation>MCP-Server &apos;%1&apos; listet das Werkzeug &apos;%2&apos; mehrmals; das erste wird behalten</translation>
    </message>
    <message>
        <source>MCP server &apos;%1&apos;: %2</source>
        <translation>MCP-Server &apos;%1&apos;: %2</translation>
    </message>
    <message>
        <source>script &apos;%1&apos; binds &apos;%2&apos;, which MCP server &apos;%3&apos; does not list; calls of it fail as unknown_tool</source>
        <translation>Skript &apos;%1&apos; bindet &apos;%2&apos;, das der MCP-Server &apos;%3&apos; nicht auflistet; Aufrufe davon schlagen als unknown_tool fehl</translation>
    </message>
    <message>
        <source>MCP server &apos;%1&apos;: %2…</source>
        <translation>MCP-Server &apos;%1&apos;: %2…</translation>
    </message>
    <message>
        <source>MCP server &apos;%1&apos;: a tool is left out, its x-mcp-header parameters break the rules of MCP 2026-07-28 (the server must fix its inputSchema): %2</source>
        <translation>MCP-Server „%1“: ein Werkzeug wird ausgelassen, seine x-mcp-header-Parameter verletzen die Regeln von MCP 2026-07-28 (der Server muss sein inputSchema korrigieren): %2</translation>
    </message>
</context>
<context>
    <name>McpPromptsPage</name>
    <message>
        <source>Prompt</source>
        <translation>Prompt</translation>
    </message>
    <message>
        <source>Title</source>
        <translation>Titel</translation>
    </message>
    <message>
        <source>Arguments (* required)</source>
        <translation>Argumente (* erforderlich)</translation>
    </message>
    <message>
        <source>&amp;Get</source>
        <translation>Ab&amp;rufen</translation>
    </message>
    <message>
        <source>Ask the server for this prompt&apos;s messages with these arguments (prompts/get)</source>
        <translation>Die Nachrichten dieses Prompts mit diesen Argumenten beim Server anfordern (prompts/get)</translation>
    </message>
    <message>
        <source>Listing…</source>
        <translation>Wird aufgelistet…</translation>
    </message>
    <message>
        <source>prompts/list failed: %1</source>
        <translation>prompts/list fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>%1 prompts left out (no name, arguments that are not a list of named arguments)</source>
        <translation>%1 Prompts ausgelassen (kein Name, Argumente keine Liste benannter Argumente)</translation>
    </message>
    <message>
        <source>prompts/list cut short: %1</source>
        <translation>prompts/list gekürzt: %1</translation>
    </message>
    <message>
        <source>Getting %1…</source>
        <translation>%1 wird abgerufen…</translation>
    </message>
    <message>
        <source>Fill in the required arguments: %1</source>
        <translation>Füllen Sie die erforderlichen Argumente aus: %1</translation>
    </message>
    <message>
        <source>prompts/get failed: %1</source>
        <translation>prompts/get fehlgeschlagen: %1</translation>
    </message>
    <message numerus="yes">
        <source>%n message(s).</source>
        <translation>
            <numerusform>%n Nachricht.</numerusform>
            <numerusform>%n Nachrichten.</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 message(s) left out: not an object with a content object</source>
        <translation>%1 Nachricht(en) ausgelassen: kein Objekt mit einem content-Objekt</translation>
    </message>
    <message>
        <source>%1 waits for your answer to this question: answer it or press Cancel before getting again.</source>
        <translation>%1 wartet auf Ihre Antwort auf diese Frage: beantworten Sie sie oder drücken Sie Abbrechen, bevor Sie erneut abrufen.</translation>
    </message>
</context>
<context>
    <name>McpResourcesPage</name>
    <message>
        <source>Resource</source>
        <translation>Ressource</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>Typ</translation>
    </message>
    <message>
        <source>Reload</source>
        <translation>Neu laden</translation>
    </message>
    <message>
        <source>List the server&apos;s resources, templates and prompts again</source>
        <translation>Ressourcen, Vorlagen und Prompts des Servers erneut auflisten</translation>
    </message>
    <message>
        <source>Template</source>
        <translation>Vorlage</translation>
    </message>
    <message>
        <source>&amp;URI:</source>
        <translation>&amp;URI:</translation>
    </message>
    <message>
        <source>a resource&apos;s URI; pick one on the left or type it</source>
        <translation>URI einer Ressource; links eine wählen oder eintippen</translation>
    </message>
    <message>
        <source>&amp;Read</source>
        <translation>&amp;Lesen</translation>
    </message>
    <message>
        <source>Ask the server for this resource (resources/read)</source>
        <translation>Diese Ressource beim Server anfordern (resources/read)</translation>
    </message>
    <message>
        <source>&amp;Subscribe: read it again when the server says it changed</source>
        <translation>&amp;Abonnieren: erneut lesen, wenn der Server eine Änderung meldet</translation>
    </message>
    <message>
        <source>The server does not offer subscriptions (resources.subscribe)</source>
        <translation>Der Server bietet keine Abonnements an (resources.subscribe)</translation>
    </message>
    <message>
        <source>Listing…</source>
        <translation>Wird aufgelistet…</translation>
    </message>
    <message>
        <source>Resources</source>
        <translation>Ressourcen</translation>
    </message>
    <message>
        <source>Templates</source>
        <translation>Vorlagen</translation>
    </message>
    <message>
        <source>%1: %2 entries left out (a name or uri missing, a uri with control characters or too long)</source>
        <translation>%1: %2 Einträge ausgelassen (Name oder URI fehlt, URI mit Steuerzeichen oder zu lang)</translation>
    </message>
    <message>
        <source>%1 cut short: %2</source>
        <translation>%1 gekürzt: %2</translation>
    </message>
    <message>
        <source>resources/list failed: %1</source>
        <translation>resources/list fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>Resources (%1)</source>
        <translation>Ressourcen (%1)</translation>
    </message>
    <message>
        <source>resources/templates/list failed: %1</source>
        <translation>resources/templates/list fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>Templates (%1)</source>
        <translation>Vorlagen (%1)</translation>
    </message>
    <message>
        <source>Reading %1…</source>
        <translation>%1 wird gelesen…</translation>
    </message>
    <message>
        <source>Pick a resource or type a URI first.</source>
        <translation>Wählen Sie zuerst eine Ressource, oder geben Sie eine URI ein.</translation>
    </message>
    <message>
        <source>resources/read failed: %1</source>
        <translation>resources/read fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message numerus="yes">
        <source>Read at %1: %n part(s).</source>
        <translation>
            <numerusform>Gelesen um %1: %n Teil.</numerusform>
            <numerusform>Gelesen um %1: %n Teile.</numerusform>
        </translation>
    </message>
    <message>
        <source>Copy and Save As take the first.</source>
        <translation>Kopieren und Speichern unter verwenden den ersten.</translation>
    </message>
    <message>
        <source>Not shown: %1</source>
        <translation>Nicht angezeigt: %1</translation>
    </message>
    <message>
        <source>Pick a resource or type a URI to subscribe to.</source>
        <translation>Wählen Sie eine Ressource, oder geben Sie eine URI zum Abonnieren ein.</translation>
    </message>
    <message>
        <source>resources/subscribe failed: %1</source>
        <translation>resources/subscribe fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>Subscribed to %1: it is read again when the server says it changed.</source>
        <translation>%1 abonniert: wird erneut gelesen, wenn der Server eine Änderung meldet.</translation>
    </message>
    <message>
        <source>The server ended the subscription: %1</source>
        <translation>Der Server hat das Abonnement beendet: %1</translation>
    </message>
    <message>
        <source>%1 waits for your answer to this question: answer it or press Cancel before reading again.</source>
        <translation>%1 wartet auf Ihre Antwort auf diese Frage: beantworten Sie sie oder drücken Sie Abbrechen, bevor Sie erneut lesen.</translation>
    </message>
</context>
<context>
    <name>McpResultPane</name>
    <message>
        <source>Content</source>
        <translation>Inhalt</translation>
    </message>
    <message>
        <source>Tree</source>
        <translation>Baum</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>Kopieren</translation>
    </message>
    <message>
        <source>Copy the text to the clipboard</source>
        <translation>Den Text in die Zwischenablage kopieren</translation>
    </message>
    <message>
        <source>Copy as JSON</source>
        <translation>Als JSON kopieren</translation>
    </message>
    <message>
        <source>Save As…</source>
        <translation>Speichern unter…</translation>
    </message>
    <message>
        <source>Save the resource&apos;s text or its decoded blob to a file</source>
        <translation>Den Text der Ressource oder ihren dekodierten Blob in einer Datei speichern</translation>
    </message>
    <message>
        <source>Save Resource As</source>
        <translation>Ressource speichern unter</translation>
    </message>
    <message>
        <source>Could not save %1: %2</source>
        <translation>%1 konnte nicht gespeichert werden: %2</translation>
    </message>
    <message>
        <source>Saved %1 (%2).</source>
        <translation>%1 gespeichert (%2).</translation>
    </message>
</context>
<context>
    <name>McpServerBrowser</name>
    <message>
        <source>MCP Server %1 — Resources and Prompts</source>
        <translation>MCP-Server %1 — Ressourcen und Prompts</translation>
    </message>
    <message>
        <source>Resources</source>
        <translation>Ressourcen</translation>
    </message>
    <message>
        <source>Prompts</source>
        <translation>Prompts</translation>
    </message>
    <message>
        <source>MCP server &apos;%1&apos; is not running (%2): start it with Restart in the MCP Servers dock</source>
        <translation>MCP-Server &apos;%1&apos; läuft nicht (%2): starten Sie ihn mit „Neu starten“ im Dock „MCP-Server“</translation>
    </message>
    <message>
        <source>not in the project</source>
        <translation>nicht im Projekt</translation>
    </message>
    <message>
        <source>MCP server &apos;%1&apos; stopped before it answered</source>
        <translation>MCP-Server &apos;%1&apos; wurde beendet, bevor er antwortete</translation>
    </message>
</context>
<context>
    <name>McpServerFeatures</name>
    <message>
        <source>the server is not connected</source>
        <translation>der Server ist nicht verbunden</translation>
    </message>
    <message>
        <source>the server&apos;s %1 result has no &quot;%2&quot; array</source>
        <translation>das %1-Ergebnis des Servers hat kein Array &quot;%2&quot;</translation>
    </message>
    <message>
        <source>the server lists more than %1 entries; the studio keeps the first %1</source>
        <translation>der Server listet mehr als %1 Einträge; das Studio behält die ersten %1</translation>
    </message>
    <message>
        <source>the server&apos;s entries add up to more than %1 MiB; the studio keeps those before</source>
        <translation>die Einträge des Servers ergeben zusammen mehr als %1 MiB; das Studio behält die davor</translation>
    </message>
    <message>
        <source>the server&apos;s %1 nextCursor is not a string</source>
        <translation>der nextCursor von %1 des Servers ist kein String</translation>
    </message>
    <message>
        <source>the server&apos;s %1 nextCursor is longer than %2 KiB</source>
        <translation>der nextCursor von %1 des Servers ist länger als %2 KiB</translation>
    </message>
    <message>
        <source>the server&apos;s %1 gave the same nextCursor twice (at page %2): the list would not end</source>
        <translation>%1 des Servers lieferte denselben nextCursor zweimal (bei Seite %2): die Liste würde nicht enden</translation>
    </message>
    <message>
        <source>the server&apos;s list goes on past %1 pages; the studio keeps those</source>
        <translation>die Liste des Servers geht über %1 Seiten hinaus; das Studio behält diese</translation>
    </message>
    <message>
        <source>the server declares no &quot;%1&quot; capability in its initialize result: it offers none, so the studio does not ask</source>
        <translation>der Server deklariert in seinem initialize-Ergebnis keine Capability &quot;%1&quot;: er bietet keine an, daher fragt das Studio nicht</translation>
    </message>
    <message>
        <source>the server&apos;s resources/read result has no &quot;contents&quot; array</source>
        <translation>das resources/read-Ergebnis des Servers hat kein Array &quot;contents&quot;</translation>
    </message>
    <message>
        <source>its blob is not valid base64 (%1 characters)</source>
        <translation>sein Blob ist kein gültiges Base64 (%1 Zeichen)</translation>
    </message>
    <message>
        <source>it has neither a &quot;text&quot; nor a &quot;blob&quot; string</source>
        <translation>er hat weder einen String &quot;text&quot; noch &quot;blob&quot;</translation>
    </message>
    <message>
        <source>the server&apos;s resources/read result has no contents (no object in &quot;contents&quot;)</source>
        <translation>das resources/read-Ergebnis des Servers hat keinen Inhalt (kein Objekt in &quot;contents&quot;)</translation>
    </message>
    <message>
        <source>the server&apos;s prompts/get result has no &quot;messages&quot; array</source>
        <translation>das prompts/get-Ergebnis des Servers hat kein Array &quot;messages&quot;</translation>
    </message>
    <message>
        <source>(no role)</source>
        <translation>(keine Rolle)</translation>
    </message>
    <message>
        <source>the server&apos;s &quot;resources&quot; capability does not offer subscribe: the studio does not ask</source>
        <translation>die Capability &quot;resources&quot; des Servers bietet kein subscribe an: das Studio fragt nicht</translation>
    </message>
    <message>
        <source>the URI template has a &apos;}&apos; without &apos;{&apos; at character %1</source>
        <translation>die URI-Vorlage hat bei Zeichen %1 eine &apos;}&apos; ohne &apos;{&apos;</translation>
    </message>
    <message>
        <source>the URI template has a &apos;{&apos; without &apos;}&apos; at character %1</source>
        <translation>die URI-Vorlage hat bei Zeichen %1 eine &apos;{&apos; ohne &apos;}&apos;</translation>
    </message>
    <message>
        <source>the URI template&apos;s expression {%1} is beyond RFC 6570 level 1 (only {name} is filled in here): type the URI instead</source>
        <translation>der Ausdruck {%1} der URI-Vorlage geht über RFC 6570 Level 1 hinaus (hier wird nur {name} ausgefüllt): geben Sie stattdessen die URI ein</translation>
    </message>
    <message>
        <source>%1 of &quot;%2&quot;</source>
        <translation>%1 von „%2“</translation>
    </message>
</context>
<context>
    <name>McpServerPool</name>
    <message>
        <source>MCP server &apos;%1&apos; was removed or changed in toolstudio.json</source>
        <translation>MCP-Server &apos;%1&apos; wurde in toolstudio.json entfernt oder geändert</translation>
    </message>
    <message>
        <source>cannot start: %1</source>
        <translation>kann nicht starten: %1</translation>
    </message>
    <message>
        <source>tools/list failed: %1</source>
        <translation>tools/list fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>MCP server &apos;%1&apos; did not start: %2</source>
        <translation>MCP-Server &apos;%1&apos; ist nicht gestartet: %2</translation>
    </message>
    <message>
        <source>the project has no MCP server &apos;%1&apos;</source>
        <translation>das Projekt hat keinen MCP-Server &apos;%1&apos;</translation>
    </message>
    <message>
        <source>MCP server &apos;%1&apos; is %2</source>
        <translation>MCP-Server &apos;%1&apos; ist %2</translation>
    </message>
    <message>
        <source>MCP server &apos;%1&apos; is not running</source>
        <translation>MCP-Server &apos;%1&apos; läuft nicht</translation>
    </message>
    <message>
        <source>the call had not been sent to MCP server &apos;%1&apos;</source>
        <translation>der Aufruf war noch nicht an MCP-Server &apos;%1&apos; gesendet</translation>
    </message>
    <message>
        <source>notifications/cancelled sent to MCP server &apos;%1&apos; (request %2)</source>
        <translation>notifications/cancelled an MCP-Server &apos;%1&apos; gesendet (Anfrage %2)</translation>
    </message>
    <message>
        <source>the server said its tools changed, but tools/list failed: %1</source>
        <translation>der Server meldete geänderte Tools, aber tools/list schlug fehl: %1</translation>
    </message>
    <message>
        <source>installing %1 with npm (once)</source>
        <translation>%1 wird mit npm installiert (einmalig)</translation>
    </message>
    <message>
        <source>MCP server &apos;%1&apos; ended while its tools were listed again: %2</source>
        <translation>MCP-Server &apos;%1&apos; wurde beendet, während seine Werkzeuge erneut aufgelistet wurden: %2</translation>
    </message>
    <message>
        <source>MCP server &apos;%1&apos; ended while its tools were listed again</source>
        <translation>MCP-Server &apos;%1&apos; wurde beendet, während seine Werkzeuge erneut aufgelistet wurden</translation>
    </message>
</context>
<context>
    <name>McpServersView</name>
    <message numerus="yes">
        <source> · MCP %1 · %n tool(s)</source>
        <translation>
            <numerusform> · MCP %1 · %n Tool</numerusform>
            <numerusform> · MCP %1 · %n Tools</numerusform>
        </translation>
    </message>
    <message>
        <source>Restart</source>
        <translation>Neu starten</translation>
    </message>
    <message>
        <source>Stop the selected MCP server and start it again</source>
        <translation>Den gewählten MCP-Server anhalten und neu starten</translation>
    </message>
    <message>
        <source>Server / tool</source>
        <translation>Server / Tool</translation>
    </message>
    <message>
        <source>Title</source>
        <translation>Titel</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <comment>an MCP server&apos;s name: its state</comment>
        <translation>%1: %2</translation>
    </message>
    <message>
        <source>why: %1</source>
        <translation>Grund: %1</translation>
    </message>
    <message>
        <source>tools: %1</source>
        <translation>Tools: %1</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>Durchsuchen…</translation>
    </message>
    <message>
        <source>Browse the selected MCP server&apos;s resources and prompts</source>
        <translation>Ressourcen und Prompts des gewählten MCP-Servers durchsuchen</translation>
    </message>
    <message>
        <source>%1, stateless</source>
        <translation>%1, zustandslos</translation>
    </message>
    <message>
        <source>Sign In…</source>
        <translation>Anmelden…</translation>
    </message>
    <message>
        <source>Sign in to the selected remote MCP server (OAuth): your browser opens</source>
        <translation>Beim ausgewählten entfernten MCP-Server anmelden (OAuth): Ihr Browser öffnet sich</translation>
    </message>
    <message>
        <source>Review Changes…</source>
        <translation>Änderungen prüfen…</translation>
    </message>
    <message>
        <source>Show what changed in the selected server&apos;s tools since you accepted them, and accept it</source>
        <translation>Zeigen, was sich an den Tools des ausgewählten Servers seit Ihrer Zustimmung geändert hat, und es akzeptieren</translation>
    </message>
    <message>
        <source>accepted: %1</source>
        <translation>akzeptiert: %1</translation>
    </message>
    <message>
        <source>Review Changes… shows what changed and accepts it</source>
        <translation>Änderungen prüfen… zeigt, was sich geändert hat, und akzeptiert es</translation>
    </message>
    <message>
        <source>%1, HTTP+SSE</source>
        <translation>%1, HTTP+SSE</translation>
    </message>
    <message>
        <source>new since accepted: calls ask first</source>
        <translation>neu seit der Annahme: Aufrufe fragen zuerst</translation>
    </message>
    <message>
        <source>changed since accepted: %1; calls ask first</source>
        <translation>geändert seit der Annahme: %1; Aufrufe fragen zuerst</translation>
    </message>
</context>
<context>
    <name>McpSignIn</name>
    <message>
        <source>Sign In</source>
        <translation>Anmelden</translation>
    </message>
    <message>
        <source>Sign in to the MCP server %1?

Your browser opens at its authorization server; the tokens are kept with the project&apos;s secrets.</source>
        <translation>Beim MCP-Server %1 anmelden?

Ihr Browser öffnet sich bei seinem Autorisierungsserver; die Tokens werden bei den Geheimnissen des Projekts aufbewahrt.</translation>
    </message>
    <message>
        <source>its oauth.client_secret names secrets that are not set: %1</source>
        <translation>sein oauth.client_secret nennt Geheimnisse, die nicht gesetzt sind: %1</translation>
    </message>
    <message>
        <source>Sign in to %1 in your browser.

If no browser opened, open this URL:
%2</source>
        <translation>Melden Sie sich in Ihrem Browser bei %1 an.

Falls sich kein Browser geöffnet hat, öffnen Sie diese URL:
%2</translation>
    </message>
    <message>
        <source>cancelled before the browser came back</source>
        <translation>abgebrochen, bevor der Browser zurückkam</translation>
    </message>
    <message>
        <source>The sign-in to %1 failed: %2</source>
        <translation>Die Anmeldung bei %1 ist fehlgeschlagen: %2</translation>
    </message>
</context>
<context>
    <name>McpToolAcceptance</name>
    <message>
        <source>MCP tool &apos;%1&apos; is not called: %2; review the server&apos;s tools in the MCP Servers dock, or run `toolstudio mcp accept %3 %4` to accept them as they are now and write a new record</source>
        <translation>MCP-Tool &apos;%1&apos; wird nicht aufgerufen: %2; prüfen Sie die Tools des Servers im Dock MCP-Server oder führen Sie `toolstudio mcp accept %3 %4` aus, um sie so zu akzeptieren, wie sie jetzt sind, und ein neues Verzeichnis zu schreiben</translation>
    </message>
    <message>
        <source>MCP tool &apos;%1&apos; is not listed by MCP server &apos;%2&apos; now; it is not called (what the server would run under that name was never shown): restart the server in the MCP Servers dock to list its tools again</source>
        <translation>MCP-Tool &apos;%1&apos; wird von MCP-Server &apos;%2&apos; derzeit nicht aufgelistet; es wird nicht aufgerufen (was der Server unter diesem Namen ausführen würde, wurde nie angezeigt): starten Sie den Server im Dock MCP-Server neu, um seine Tools erneut aufzulisten</translation>
    </message>
    <message>
        <source>MCP tool &apos;%1&apos; is no longer listed as it was shown (it changed again); review it again</source>
        <translation>MCP-Tool &apos;%1&apos; wird nicht mehr so aufgelistet, wie es angezeigt wurde (es hat sich erneut geändert); prüfen Sie es noch einmal</translation>
    </message>
    <message>
        <source>… (%1 in all)</source>
        <translation>… (%1 insgesamt)</translation>
    </message>
    <message>
        <source>its tools were listed again; none changed</source>
        <translation>seine Tools wurden neu gelistet; keines hat sich geändert</translation>
    </message>
    <message>
        <source>its tools changed (%1)</source>
        <translation>seine Tools haben sich geändert (%1)</translation>
    </message>
</context>
<context>
    <name>McpToolChange</name>
    <message>
        <source>review it in the MCP Servers dock, or run `toolstudio mcp accept %1 %2 %3`</source>
        <translation>prüfen Sie es im Dock MCP-Server oder führen Sie `toolstudio mcp accept %1 %2 %3` aus</translation>
    </message>
    <message>
        <source>MCP tool &apos;%1&apos; is new on MCP server &apos;%2&apos; since its tools were accepted; it is not called until a person accepts it: %3</source>
        <translation>MCP-Tool &apos;%1&apos; ist auf MCP-Server &apos;%2&apos; neu, seit dessen Tools akzeptiert wurden; es wird nicht aufgerufen, bis ein Mensch es akzeptiert: %3</translation>
    </message>
    <message>
        <source>; its description was &quot;%1&quot; and is now &quot;%2&quot;</source>
        <translation>; seine Beschreibung war &quot;%1&quot; und ist jetzt &quot;%2&quot;</translation>
    </message>
    <message>
        <source>MCP tool &apos;%1&apos; changed since it was accepted (%2)%3; it is not called until a person accepts it: %4</source>
        <translation>MCP-Tool &apos;%1&apos; hat sich seit der Zustimmung geändert (%2)%3; es wird nicht aufgerufen, bis ein Mensch es akzeptiert: %4</translation>
    </message>
    <message>
        <source>MCP tool &apos;%1&apos; of MCP server &apos;%2&apos; is not called: its definition nests more than %3 levels deep, more than the record of accepted tools keeps, so it cannot be accepted</source>
        <translation>MCP-Tool &apos;%1&apos; des MCP-Servers &apos;%2&apos; wird nicht aufgerufen: seine Definition ist mehr als %3 Ebenen tief verschachtelt, tiefer als das Verzeichnis akzeptierter Tools speichert, daher kann es nicht akzeptiert werden</translation>
    </message>
    <message>
        <source>(the definitions are %1 and %2 lines long, more than the %3 the studio compares line by line; what changed: %4)
</source>
        <translation>(die Definitionen sind %1 und %2 Zeilen lang, mehr als die %3, die das Studio Zeile für Zeile vergleicht; geändert: %4)
</translation>
    </message>
</context>
<context>
    <name>McpToolChangeQuestion</name>
    <message>
        <source>MCP tool &apos;%1&apos; is new on MCP server &apos;%2&apos; since its tools were accepted. Accept it to send the call, or reject it: the call fails and the tool stays unaccepted.</source>
        <translation>MCP-Werkzeug „%1“ ist auf MCP-Server „%2“ neu, seit seine Werkzeuge angenommen wurden. Nehmen Sie es an, um den Aufruf zu senden, oder lehnen Sie es ab: Der Aufruf schlägt fehl und das Werkzeug bleibt nicht angenommen.</translation>
    </message>
    <message>
        <source>MCP tool &apos;%1&apos; changed since it was accepted (%2). Accept the new definition to send the call, or reject it: the call fails and the accepted definition stays.</source>
        <translation>MCP-Werkzeug „%1“ hat sich seit der Annahme geändert (%2). Nehmen Sie die neue Definition an, um den Aufruf zu senden, oder lehnen Sie sie ab: Der Aufruf schlägt fehl und die angenommene Definition bleibt.</translation>
    </message>
    <message>
        <source>MCP tool &apos;%1&apos; is new since its server&apos;s tools were accepted</source>
        <translation>MCP-Werkzeug „%1“ ist neu, seit die Werkzeuge seines Servers angenommen wurden</translation>
    </message>
    <message>
        <source>MCP tool &apos;%1&apos; changed since it was accepted (%2)</source>
        <translation>MCP-Werkzeug „%1“ hat sich seit der Annahme geändert (%2)</translation>
    </message>
    <message>
        <source>%1; a person rejected the change, so it was not called</source>
        <translation>%1; eine Person hat die Änderung abgelehnt, daher wurde es nicht aufgerufen</translation>
    </message>
    <message>
        <source>%1; a person rejected the change, so it was not called: %2</source>
        <translation>%1; eine Person hat die Änderung abgelehnt, daher wurde es nicht aufgerufen: %2</translation>
    </message>
</context>
<context>
    <name>McpToolChangesDialog</name>
    <message>
        <source>Changed Tools of %1</source>
        <translation>Geänderte Tools von %1</translation>
    </message>
    <message>
        <source>%1: new since the server&apos;s tools were accepted</source>
        <translation>%1: neu, seit die Tools des Servers akzeptiert wurden</translation>
    </message>
    <message>
        <source>%1: changed since accepted: %2</source>
        <translation>%1: geändert seit der Zustimmung: %2</translation>
    </message>
    <message>
        <source>Every tool of %1 is accepted as it is listed now.</source>
        <translation>Jedes Tool von %1 ist so akzeptiert, wie es jetzt aufgelistet ist.</translation>
    </message>
    <message>
        <source>Accept</source>
        <translation>Akzeptieren</translation>
    </message>
    <message>
        <source>Keep Refusing</source>
        <translation>Weiter ablehnen</translation>
    </message>
    <message>
        <source>Accept Changes</source>
        <translation>Änderungen akzeptieren</translation>
    </message>
    <message>
        <source>The project&apos;s MCP servers are gone.</source>
        <translation>Die MCP-Server des Projekts sind nicht mehr da.</translation>
    </message>
    <message numerus="yes">
        <source>%n tool(s) of %1 changed since you accepted them. Until you accept the changes, each of their calls asks you first in the Pending Calls dock (headless runs fail them); scripts keep their bindings either way.</source>
        <translation>
            <numerusform>%n Werkzeug von %1 hat sich geändert, seit Sie es angenommen haben. Bis Sie die Änderung annehmen, fragt jeder seiner Aufrufe Sie zuerst im Dock „Offene Aufrufe“ (Läufe ohne Fenster lassen sie scheitern); Skripte behalten ihre Bindungen in jedem Fall.</numerusform>
            <numerusform>%n Werkzeuge von %1 haben sich geändert, seit Sie sie angenommen haben. Bis Sie die Änderungen annehmen, fragt jeder ihrer Aufrufe Sie zuerst im Dock „Offene Aufrufe“ (Läufe ohne Fenster lassen sie scheitern); Skripte behalten ihre Bindungen in jedem Fall.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>McpToolReview</name>
    <message>
        <source>MCP server &apos;%1&apos; is not ready; its tools can be accepted once it listed them</source>
        <translation>MCP-Server &apos;%1&apos; ist nicht bereit; seine Tools können akzeptiert werden, sobald er sie aufgelistet hat</translation>
    </message>
</context>
<context>
    <name>ModelComposer</name>
    <message>
        <source>The model&apos;s answer (a final answer when no tool is called)</source>
        <translation>Die Antwort des Modells (eine endgültige Antwort, wenn kein Tool aufgerufen wird)</translation>
    </message>
    <message>
        <source>Reply &amp;text:</source>
        <translation>Antwort&amp;text:</translation>
    </message>
    <message>
        <source>Add Tool &amp;Call</source>
        <translation>Tool-&amp;Aufruf hinzufügen</translation>
    </message>
    <message>
        <source>The model calls the chosen tool; fill its arguments below</source>
        <translation>Das Modell ruft das gewählte Tool auf; seine Argumente unten ausfüllen</translation>
    </message>
    <message>
        <source>Call a tool:</source>
        <translation>Ein Tool aufrufen:</translation>
    </message>
    <message>
        <source>The conversation the model was sent:</source>
        <translation>Die Unterhaltung, die das Modell erhielt:</translation>
    </message>
    <message>
        <source>(the model was offered no tools)</source>
        <translation>(dem Modell wurden keine Tools angeboten)</translation>
    </message>
    <message>
        <source>Call %1</source>
        <translation>Aufruf %1</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>Entfernen</translation>
    </message>
    <message>
        <source>Call %1: %2</source>
        <translation>Aufruf %1: %2</translation>
    </message>
    <message>
        <source>Write the reply text or add a tool call: the model&apos;s turn needs one of them.</source>
        <translation>Antworttext schreiben oder einen Tool-Aufruf hinzufügen: der Zug des Modells braucht eins davon.</translation>
    </message>
</context>
<context>
    <name>NewFileDialog</name>
    <message>
        <source>New Tool</source>
        <translation>Neues Tool</translation>
    </message>
    <message>
        <source>New Script</source>
        <translation>Neues Skript</translation>
    </message>
    <message>
        <source>Python (a method of class Tools)</source>
        <translation>Python (eine Methode der Klasse Tools)</translation>
    </message>
    <message>
        <source>Python</source>
        <translation>Python</translation>
    </message>
    <message>
        <source>Node (a command tool)</source>
        <translation>Node (ein Befehls-Tool)</translation>
    </message>
    <message>
        <source>Node</source>
        <translation>Node</translation>
    </message>
    <message>
        <source>Writes %1</source>
        <translation>Schreibt %1</translation>
    </message>
    <message>
        <source>&amp;Name:</source>
        <translation>&amp;Name:</translation>
    </message>
    <message>
        <source>&amp;Language:</source>
        <translation>S&amp;prache:</translation>
    </message>
    <message>
        <source>Create</source>
        <translation>Anlegen</translation>
    </message>
    <message>
        <source>Give the tool a name.</source>
        <translation>Geben Sie dem Tool einen Namen.</translation>
    </message>
    <message>
        <source>Give the script a name.</source>
        <translation>Geben Sie dem Skript einen Namen.</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not a valid tool name: use up to 64 letters, digits and _, starting with a letter or _ (for example %2).</source>
        <translation>„%1“ ist kein gültiger Tool-Name: verwenden Sie bis zu 64 Buchstaben, Ziffern und _, beginnend mit einem Buchstaben oder _ (zum Beispiel %2).</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not a valid script name: use up to 64 letters, digits and _, starting with a letter or _ (for example %2).</source>
        <translation>„%1“ ist kein gültiger Skriptname: verwenden Sie bis zu 64 Buchstaben, Ziffern und _, beginnend mit einem Buchstaben oder _ (zum Beispiel %2).</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is a Python keyword, so it cannot name a tool. Choose another name.</source>
        <translation>„%1“ ist ein Python-Schlüsselwort und kann kein Tool benennen. Wählen Sie einen anderen Namen.</translation>
    </message>
    <message>
        <source>The project has a tool named %1 already. Choose another name.</source>
        <translation>Das Projekt hat schon ein Tool namens %1. Wählen Sie einen anderen Namen.</translation>
    </message>
    <message>
        <source>The project has a script named %1 already. Choose another name.</source>
        <translation>Das Projekt hat schon ein Skript namens %1. Wählen Sie einen anderen Namen.</translation>
    </message>
    <message>
        <source>%1 exists already; nothing was written (a new file never overwrites one). Choose another name.</source>
        <translation>%1 gibt es schon; nichts wurde geschrieben (eine neue Datei überschreibt nie eine vorhandene). Wählen Sie einen anderen Namen.</translation>
    </message>
    <message>
        <source>Open a project first.</source>
        <translation>Öffnen Sie zuerst ein Projekt.</translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>%1 kann nicht geschrieben werden: %2</translation>
    </message>
    <message>
        <source>New tool %1</source>
        <translation>Neues Tool %1</translation>
    </message>
    <message>
        <source>New script %1</source>
        <translation>Neues Skript %1</translation>
    </message>
    <message>
        <source>toolstudio.json could not be changed; %1 was not kept.</source>
        <translation>toolstudio.json konnte nicht geändert werden; %1 wurde nicht behalten.</translation>
    </message>
</context>
<context>
    <name>NewProjectDialog</name>
    <message>
        <source>New Project</source>
        <translation>Neues Projekt</translation>
    </message>
    <message>
        <source>A new or empty folder</source>
        <translation>Ein neuer oder leerer Ordner</translation>
    </message>
    <message>
        <source>&amp;Browse…</source>
        <translation>&amp;Durchsuchen…</translation>
    </message>
    <message>
        <source>&amp;Folder:</source>
        <translation>&amp;Ordner:</translation>
    </message>
    <message>
        <source>&amp;Template:</source>
        <translation>&amp;Vorlage:</translation>
    </message>
    <message>
        <source>&amp;Create</source>
        <translation>&amp;Anlegen</translation>
    </message>
    <message>
        <source>Choose a folder for the project.</source>
        <translation>Wählen Sie einen Ordner für das Projekt.</translation>
    </message>
    <message>
        <source>The folder must be a full path (e.g. %1).</source>
        <translation>Der Ordner muss ein vollständiger Pfad sein (z. B. %1).</translation>
    </message>
    <message>
        <source>Choose a template.</source>
        <translation>Wählen Sie eine Vorlage.</translation>
    </message>
    <message>
        <source>Folder for the New Project</source>
        <translation>Ordner für das neue Projekt</translation>
    </message>
</context>
<context>
    <name>PendingCallsPanel</name>
    <message>
        <source>&amp;Continue</source>
        <translation>&amp;Fortsetzen</translation>
    </message>
    <message>
        <source>Answer in a &amp;Window…</source>
        <translation>In einem Fenster &amp;beantworten…</translation>
    </message>
    <message>
        <source>Answer the selected call in a window of its own (room for a large form)</source>
        <translation>Den ausgewählten Aufruf in einem eigenen Fenster beantworten (Platz für ein großes Formular)</translation>
    </message>
    <message>
        <source>Cannot continue: %1</source>
        <translation>Fortsetzen nicht möglich: %1</translation>
    </message>
    <message>
        <source>waited %1 (no wait bound)</source>
        <translation>wartet seit %1 (keine Wartegrenze)</translation>
    </message>
    <message>
        <source>waited %1 of %2 (wait bound)</source>
        <translation>wartet seit %1 von %2 (Wartegrenze)</translation>
    </message>
    <message>
        <source>#%1 %2 (attempt %3, waiting %4) %5</source>
        <translation>#%1 %2 (Versuch %3, wartet seit %4) %5</translation>
    </message>
    <message>
        <source>#%1 %2 (held by step mode, %3) %4</source>
        <translation>#%1 %2 (vom Schrittmodus angehalten, %3) %4</translation>
    </message>
    <message>
        <source>Closed: the run was stopped before an answer.</source>
        <translation>Geschlossen: Der Lauf wurde vor einer Antwort gestoppt.</translation>
    </message>
    <message>
        <source>Closed: answered elsewhere.</source>
        <translation>Geschlossen: anderswo beantwortet.</translation>
    </message>
    <message>
        <source>Closed: answered elsewhere with an error, or its wait bound ran out.</source>
        <translation>Geschlossen: anderswo mit einem Fehler beantwortet, oder die Wartegrenze ist abgelaufen.</translation>
    </message>
    <message>
        <source>Closed: its wait bound ran out; the step retries.</source>
        <translation>Geschlossen: Die Wartegrenze ist abgelaufen; der Schritt wird wiederholt.</translation>
    </message>
    <message>
        <source>Closed: the run ended before an answer.</source>
        <translation>Geschlossen: Der Lauf endete vor einer Antwort.</translation>
    </message>
    <message>
        <source>Step mode: run the selected held call&apos;s handler (F7)</source>
        <translation>Schrittmodus: den Handler des gewählten gehaltenen Aufrufs ausführen (F7)</translation>
    </message>
    <message>
        <source>Continue to &amp;End</source>
        <translation>Bis zum &amp;Ende fortsetzen</translation>
    </message>
    <message>
        <source>Leave step mode: every held call and every later one runs (F8)</source>
        <translation>Schrittmodus verlassen: jeder gehaltene und jeder spätere Aufruf läuft (F8)</translation>
    </message>
    <message>
        <source>held %1 (step mode: the run clock is paused)</source>
        <translation>angehalten seit %1 (Schrittmodus: die Laufzeituhr pausiert)</translation>
    </message>
    <message>
        <source>Edit &amp;Messages…</source>
        <translation>&amp;Nachrichten bearbeiten…</translation>
    </message>
    <message>
        <source>Step mode: send the held model call with messages you edit instead of the script&apos;s</source>
        <translation>Schrittmodus: den gehaltenen Modellaufruf mit Ihren bearbeiteten Nachrichten statt denen des Skripts senden</translation>
    </message>
    <message>
        <source>Cannot send the edited messages: %1</source>
        <translation>Die bearbeiteten Nachrichten können nicht gesendet werden: %1</translation>
    </message>
    <message>
        <source>#%1 %2 (%3, waiting %4) %5</source>
        <translation>#%1 %2 (%3, wartet %4) %5</translation>
    </message>
    <message>
        <source>its server asks: input</source>
        <translation>sein Server fragt: Eingabe</translation>
    </message>
    <message>
        <source>its tool changed: accept or reject</source>
        <translation>sein Werkzeug hat sich geändert: annehmen oder ablehnen</translation>
    </message>
    <message>
        <source>its server asks: a reply</source>
        <translation>sein Server fragt: eine Antwort</translation>
    </message>
</context>
<context>
    <name>PresenterView</name>
    <message>
        <source>Zoom &amp;In</source>
        <translation>Ver&amp;größern</translation>
    </message>
    <message>
        <source>Zoom &amp;Out</source>
        <translation>Ver&amp;kleinern</translation>
    </message>
    <message>
        <source>&amp;Reset Zoom</source>
        <translation>&amp;Originalgröße</translation>
    </message>
    <message>
        <source>&amp;Presenter Layout</source>
        <translation>&amp;Präsentationsansicht</translation>
    </message>
    <message>
        <source>For a projector: the editor, trace, pending calls and console only, large type, high contrast (F11 again to go back)</source>
        <translation>Für einen Projektor: nur Editor, Trace, offene Aufrufe und Konsole, große Schrift, hoher Kontrast (F11 noch einmal zum Zurückkehren)</translation>
    </message>
</context>
<context>
    <name>ProjectActions</name>
    <message>
        <source>&amp;New Project…</source>
        <translation>&amp;Neues Projekt…</translation>
    </message>
    <message>
        <source>Make a project in a new or empty folder from a template</source>
        <translation>Ein Projekt aus einer Vorlage in einem neuen oder leeren Ordner anlegen</translation>
    </message>
    <message>
        <source>&amp;Open Project…</source>
        <translation>Projekt ö&amp;ffnen…</translation>
    </message>
    <message>
        <source>Open a project folder (one with a toolstudio.json)</source>
        <translation>Einen Projektordner öffnen (einen mit toolstudio.json)</translation>
    </message>
    <message>
        <source>New &amp;Tool…</source>
        <translation>Neues &amp;Tool…</translation>
    </message>
    <message>
        <source>Add a tool file (Python or Node) from a template and open it</source>
        <translation>Eine Tool-Datei (Python oder Node) aus einer Vorlage anlegen und öffnen</translation>
    </message>
    <message>
        <source>New &amp;Script…</source>
        <translation>Neues &amp;Skript…</translation>
    </message>
    <message>
        <source>Add an agent script (Python or Node) from a template and open it</source>
        <translation>Ein Agentenskript (Python oder Node) aus einer Vorlage anlegen und öffnen</translation>
    </message>
    <message>
        <source>Open &amp;Recent</source>
        <translation>&amp;Zuletzt geöffnet</translation>
    </message>
    <message>
        <source>Open Project</source>
        <translation>Projekt öffnen</translation>
    </message>
    <message>
        <source>&amp;Generate Tool with AI…</source>
        <translation>Tool mit KI &amp;generieren…</translation>
    </message>
    <message>
        <source>Describe a tool; one of the project&apos;s models writes the Python file, shown as a diff before it is saved</source>
        <translation>Ein Tool beschreiben; eines der Modelle des Projekts schreibt die Python-Datei, die vor dem Speichern als Diff angezeigt wird</translation>
    </message>
</context>
<context>
    <name>ProjectPanel</name>
    <message>
        <source>Tool</source>
        <translation>Tool</translation>
    </message>
    <message>
        <source>Handler</source>
        <translation>Handler</translation>
    </message>
    <message>
        <source>Tags</source>
        <translation>Tags</translation>
    </message>
    <message>
        <source>Filter tools</source>
        <translation>Tools filtern</translation>
    </message>
    <message>
        <source>Show only the tools with this tag</source>
        <translation>Nur die Tools mit diesem Tag zeigen</translation>
    </message>
    <message>
        <source>All tags</source>
        <translation>Alle Tags</translation>
    </message>
    <message>
        <source>New</source>
        <translation>Neu</translation>
    </message>
    <message>
        <source>Add a mock tool to toolstudio.json</source>
        <translation>Ein Mock-Tool zu toolstudio.json hinzufügen</translation>
    </message>
    <message>
        <source>Rename</source>
        <translation>Umbenennen</translation>
    </message>
    <message>
        <source>Clone</source>
        <translation>Klonen</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>Löschen</translation>
    </message>
    <message>
        <source>&amp;Scripts</source>
        <translation>&amp;Skripte</translation>
    </message>
    <message>
        <source>Bound tools: %1</source>
        <translation>Gebundene Tools: %1</translation>
    </message>
    <message>
        <source>Tick the tools a script may call; a call to any other is refused as unknown_tool</source>
        <translation>Haken Sie die Tools an, die ein Skript aufrufen darf; ein Aufruf jedes anderen wird als unknown_tool abgelehnt</translation>
    </message>
    <message>
        <source>Double-click to edit the tags, separated by commas</source>
        <translation>Doppelklicken, um die Tags zu bearbeiten, durch Kommas getrennt</translation>
    </message>
    <message>
        <source>Calls every active tool (none is unticked)</source>
        <translation>Ruft jedes aktive Tool auf (keines ist abgehakt)</translation>
    </message>
    <message>
        <source>%1 is inactive: refused on the bridge even when bound</source>
        <translation>%1 ist inaktiv: auf der Bridge abgelehnt, auch wenn gebunden</translation>
    </message>
    <message>
        <source>Activate %1</source>
        <translation>%1 aktivieren</translation>
    </message>
    <message>
        <source>Deactivate %1</source>
        <translation>%1 deaktivieren</translation>
    </message>
    <message>
        <source>Set the tags of %1</source>
        <translation>Tags von %1 setzen</translation>
    </message>
    <message>
        <source>Bind %1 to %2</source>
        <translation>%1 an %2 binden</translation>
    </message>
    <message>
        <source>Unbind %1 from %2</source>
        <translation>%1 von %2 lösen</translation>
    </message>
    <message>
        <source>%1 would have no tool left to call, and an empty list means every active tool; keep at least one tool ticked.</source>
        <translation>%1 hätte kein Tool mehr zum Aufrufen, und eine leere Liste bedeutet jedes aktive Tool; lassen Sie mindestens ein Tool angehakt.</translation>
    </message>
    <message>
        <source>Tags…</source>
        <translation>Tags…</translation>
    </message>
    <message>
        <source>Edit the selected tool&apos;s tags, separated by commas</source>
        <translation>Die Tags des ausgewählten Tools bearbeiten, durch Kommas getrennt</translation>
    </message>
    <message>
        <source>Delete the selected tools (Delete); Ctrl+click or Shift+click selects several</source>
        <translation>Die ausgewählten Tools löschen (Entf); Strg+Klick oder Umschalt+Klick wählt mehrere aus</translation>
    </message>
    <message>
        <source>Warnings:</source>
        <translation>Warnungen:</translation>
    </message>
    <message>
        <source>Loading the Python tools in tools/…</source>
        <translation>Die Python-Werkzeuge in tools/ werden geladen …</translation>
    </message>
</context>
<context>
    <name>ProjectServing</name>
    <message>
        <source>Ser&amp;ve Project…</source>
        <translation>Projekt be&amp;reitstellen…</translation>
    </message>
    <message>
        <source>Serve the open project over HTTP (programmatic API, pending calls, MCP); served runs show here live</source>
        <translation>Das offene Projekt über HTTP bereitstellen (programmatische API, wartende Aufrufe, MCP); bereitgestellte Läufe erscheinen hier live</translation>
    </message>
    <message>
        <source>Open a project first.</source>
        <translation>Öffnen Sie zuerst ein Projekt.</translation>
    </message>
    <message>
        <source>The project is not served because it is not trusted: a served call runs its tools. %1</source>
        <translation>Das Projekt wird nicht bereitgestellt, weil ihm nicht vertraut wird: Ein bereitgestellter Aufruf führt seine Tools aus. %1</translation>
    </message>
    <message>
        <source>Cannot serve %1: %2.</source>
        <translation>%1 kann nicht bereitgestellt werden: %2.</translation>
    </message>
    <message>
        <source>Serve Project</source>
        <translation>Projekt bereitstellen</translation>
    </message>
    <message>
        <source>Serving on %1</source>
        <translation>Bereitgestellt auf %1</translation>
    </message>
    <message>
        <source>Serving %1 on %2 (GET / lists the routes)</source>
        <translation>%1 wird auf %2 bereitgestellt (GET / listet die Routen)</translation>
    </message>
    <message>
        <source>the project is no longer served</source>
        <translation>das Projekt wird nicht mehr bereitgestellt</translation>
    </message>
    <message>
        <source>Step mode: served call #%1 %2 is held before it runs</source>
        <translation>Schrittmodus: Der bereitgestellte Aufruf #%1 %2 wird gehalten, bevor er läuft</translation>
    </message>
    <message>
        <source>The served tools stay those before the change: the project is not trusted now. %1</source>
        <translation>Es werden weiter die Tools von vor der Änderung bereitgestellt: Dem Projekt wird jetzt nicht vertraut. %1</translation>
    </message>
</context>
<context>
    <name>ProjectSession</name>
    <message>
        <source>%1 is already open in another Tool Studio window (process %2). Switch to that window, or close it first.</source>
        <translation>%1 ist bereits in einem anderen Tool-Studio-Fenster geöffnet (Prozess %2). Wechseln Sie zu diesem Fenster oder schließen Sie es zuerst.</translation>
    </message>
</context>
<context>
    <name>ProjectTemplates</name>
    <message>
        <source>Empty project</source>
        <translation>Leeres Projekt</translation>
    </message>
    <message>
        <source>A manifest with no tools and a script that prints a line: add your own tools.</source>
        <translation>Ein Manifest ohne Werkzeuge und ein Skript, das eine Zeile ausgibt: fügen Sie Ihre eigenen Werkzeuge hinzu.</translation>
    </message>
    <message>
        <source>Python tool and a script</source>
        <translation>Python-Werkzeug und ein Skript</translation>
    </message>
    <message>
        <source>tools/text.py, a Python tool file whose methods are tools, and a script that calls them.</source>
        <translation>tools/text.py, eine Python-Werkzeugdatei, deren Methoden Werkzeuge sind, und ein Skript, das sie aufruft.</translation>
    </message>
    <message>
        <source>Exchange rate</source>
        <translation>Wechselkurs</translation>
    </message>
    <message>
        <source>One mock tool with an input and output schema, called from a plain Python script.</source>
        <translation>Ein Mock-Werkzeug mit Eingabe- und Ausgabeschema, aufgerufen aus einem einfachen Python-Skript.</translation>
    </message>
    <message>
        <source>Customer seats (Python and Node)</source>
        <translation>Kundenplätze (Python und Node)</translation>
    </message>
    <message>
        <source>An async agent script in Python and the same in Node (script &quot;node&quot;), both awaiting one tool.</source>
        <translation>Ein asynchrones Agentenskript in Python und dasselbe in Node (Skript „node“), beide warten auf ein Werkzeug.</translation>
    </message>
    <message>
        <source>Render report (answered by a person)</source>
        <translation>Bericht erstellen (von einer Person beantwortet)</translation>
    </message>
    <message>
        <source>A manual tool: the run waits in Pending Calls until a person sends the report&apos;s URL.</source>
        <translation>Ein manuelles Werkzeug: der Lauf wartet in „Offene Aufrufe“, bis eine Person die URL des Berichts sendet.</translation>
    </message>
    <message>
        <source>Retries and a person</source>
        <translation>Wiederholungen und eine Person</translation>
    </message>
    <message>
        <source>A flaky mock tool that fails twice and is retried, then a call a person approves.</source>
        <translation>Ein unzuverlässiges Mock-Werkzeug, das zweimal fehlschlägt und wiederholt wird, dann ein Aufruf, den eine Person genehmigt.</translation>
    </message>
    <message>
        <source>no template called &apos;%1&apos; (templates: %2)</source>
        <translation>keine Vorlage namens „%1“ (Vorlagen: %2)</translation>
    </message>
    <message>
        <source>%1 is a project already (it has a toolstudio.json); nothing was written. Open it, or choose an empty folder or a new one.</source>
        <translation>%1 ist bereits ein Projekt (es hat eine toolstudio.json); nichts wurde geschrieben. Öffnen Sie es, oder wählen Sie einen leeren oder neuen Ordner.</translation>
    </message>
    <message>
        <source>%1 is a file, not a folder; nothing was written.</source>
        <translation>%1 ist eine Datei, kein Ordner; nichts wurde geschrieben.</translation>
    </message>
    <message>
        <source>%1 has %2 already; nothing was written (a new project never overwrites a file). Choose an empty folder or a new one.</source>
        <translation>%1 hat bereits %2; nichts wurde geschrieben (ein neues Projekt überschreibt nie eine Datei). Wählen Sie einen leeren oder neuen Ordner.</translation>
    </message>
    <message>
        <source>cannot create the folder %1</source>
        <translation>der Ordner %1 kann nicht angelegt werden</translation>
    </message>
    <message>
        <source>cannot write %1: %2</source>
        <translation>%1 kann nicht geschrieben werden: %2</translation>
    </message>
    <message>
        <source>Model agent (offline)</source>
        <translation>Modell-Agent (offline)</translation>
    </message>
    <message>
        <source>The stock agent loop: a scripted mock model calls the exchange-rate tool; script &quot;teacher&quot; lets a person play the model.</source>
        <translation>Die mitgelieferte Agent-Schleife: ein geskriptetes Mock-Modell ruft das Wechselkurs-Tool auf; das Skript &quot;teacher&quot; lässt eine Person das Modell spielen.</translation>
    </message>
</context>
<context>
    <name>ProjectWriter</name>
    <message>
        <source>Cannot open %1: %2</source>
        <translation>%1 kann nicht geöffnet werden: %2</translation>
    </message>
    <message>
        <source>toolstudio.json: the manifest must be a JSON object</source>
        <translation>toolstudio.json: das Manifest muss ein JSON-Objekt sein</translation>
    </message>
    <message>
        <source>Cannot save %1: %2</source>
        <translation>%1 kann nicht gespeichert werden: %2</translation>
    </message>
    <message>
        <source>the tool has no name</source>
        <translation>das Tool hat keinen Namen</translation>
    </message>
    <message>
        <source>the project already has a tool called %1</source>
        <translation>das Projekt hat bereits ein Tool namens %1</translation>
    </message>
    <message>
        <source>there is no tool called %1</source>
        <translation>es gibt kein Tool namens %1</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a free, valid tool name</source>
        <translation>&quot;%1&quot; ist kein freier, gültiger Tool-Name</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a valid tool name</source>
        <translation>„%1“ ist kein gültiger Tool-Name</translation>
    </message>
    <message>
        <source>%1 is declared in toolstudio.json&apos;s tools, not in tools/*.py</source>
        <translation>%1 ist in den Tools von toolstudio.json deklariert, nicht in tools/*.py</translation>
    </message>
    <message>
        <source>%1 is a Python tool (%2): its definition is the method&apos;s code, so it cannot be cloned by name; copy the method under a new name in the file instead</source>
        <translation>%1 ist ein Python-Tool (%2): seine Definition ist der Code der Methode, daher kann es nicht über den Namen geklont werden; kopieren Sie stattdessen die Methode unter einem neuen Namen in der Datei</translation>
    </message>
    <message>
        <source>%1 is not a %2 tool</source>
        <translation>%1 ist kein %2-Tool</translation>
    </message>
    <message>
        <source>the command line is empty: give the program, then its arguments</source>
        <translation>die Befehlszeile ist leer: geben Sie das Programm an, dann seine Argumente</translation>
    </message>
    <message>
        <source>there is no script called %1</source>
        <translation>es gibt kein Skript namens %1</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a valid tool name (%2)</source>
        <translation>&quot;%1&quot; ist kein gültiger Tool-Name (%2)</translation>
    </message>
</context>
<context>
    <name>ProtocolView</name>
    <message>
        <source>Copy</source>
        <translation>Kopieren</translation>
    </message>
    <message>
        <source>Copy the selected message as JSON</source>
        <translation>Die ausgewählte Nachricht als JSON kopieren</translation>
    </message>
    <message>
        <source>Copy All</source>
        <translation>Alles kopieren</translation>
    </message>
    <message>
        <source>Copy the attempt&apos;s messages as a JSON array</source>
        <translation>Die Nachrichten des Versuchs als JSON-Array kopieren</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>Zeit</translation>
    </message>
    <message>
        <source>Message</source>
        <translation>Nachricht</translation>
    </message>
    <message>
        <source>Select a message to see it as JSON.</source>
        <translation>Wählen Sie eine Nachricht, um sie als JSON zu sehen.</translation>
    </message>
    <message>
        <source>Attempt %1</source>
        <translation>Versuch %1</translation>
    </message>
    <message>
        <source>Attempt %1 (running)</source>
        <translation>Versuch %1 (läuft)</translation>
    </message>
    <message>
        <source>Attempt %1 (cancelled, not journaled)</source>
        <translation>Versuch %1 (abgebrochen, nicht im Journal)</translation>
    </message>
</context>
<context>
    <name>QObject</name>
    <message>
        <source>%1: cannot read the answers file: %2</source>
        <translation>%1: die Antwortdatei kann nicht gelesen werden: %2</translation>
    </message>
    <message>
        <source>%1: the answers file must be a JSON object keyed by tool name or #N</source>
        <translation>%1: die Antwortdatei muss ein JSON-Objekt mit Tool-Namen oder #N als Schlüsseln sein</translation>
    </message>
    <message>
        <source>cannot create %1</source>
        <translation>%1 kann nicht angelegt werden</translation>
    </message>
    <message>
        <source>cannot copy %1 into the run&apos;s work dir</source>
        <translation>%1 kann nicht in das Arbeitsverzeichnis des Laufs kopiert werden</translation>
    </message>
    <message>
        <source>cannot write %1: %2</source>
        <translation>%1 kann nicht geschrieben werden: %2</translation>
    </message>
    <message>
        <source>
[%1 truncated at %2 bytes; the rest was discarded]
</source>
        <translation>
[%1 bei %2 Bytes abgeschnitten; der Rest wurde verworfen]
</translation>
    </message>
    <message>
        <source>stopped by the user; the script&apos;s process group was killed</source>
        <translation>vom Benutzer gestoppt; die Prozessgruppe des Skripts wurde beendet</translation>
    </message>
    <message>
        <source>the script was killed by signal %1</source>
        <translation>das Skript wurde durch Signal %1 beendet</translation>
    </message>
    <message>
        <source>the script exited with status %1</source>
        <translation>das Skript endete mit Status %1</translation>
    </message>
    <message>
        <source>the script ended</source>
        <translation>das Skript ist beendet</translation>
    </message>
    <message>
        <source> (some processes of the script&apos;s group could not be confirmed gone yet)</source>
        <translation> (für einige Prozesse der Skriptgruppe ist noch nicht bestätigt, dass sie beendet sind)</translation>
    </message>
    <message>
        <source>
[run files: kept %1 files (%2 bytes) in %3; %4 more files (%5 bytes) were over the cap of %6 files / %7 MiB and were discarded]
</source>
        <translation>
[Laufdateien: %1 Dateien (%2 Bytes) in %3 behalten; %4 weitere Dateien (%5 Bytes) lagen über der Grenze von %6 Dateien / %7 MiB und wurden verworfen]
</translation>
    </message>
    <message>
        <source>the script was killed by the sandbox (signal SIGSYS): it made a system call from a foreign architecture (x32 or int 0x80), or one that is not on the allow-list in the kill-on-unlisted mode</source>
        <translation>das Skript wurde von der Sandbox beendet (Signal SIGSYS): es machte einen Systemaufruf einer fremden Architektur (x32 oder int 0x80) oder einen, der im Modus „nicht gelistet beendet“ nicht auf der Erlaubnisliste steht</translation>
    </message>
    <message>
        <source>the script used up its CPU time limit (RLIMIT_CPU) and was killed (SIGXCPU)</source>
        <translation>das Skript hat sein CPU-Zeitlimit (RLIMIT_CPU) aufgebraucht und wurde beendet (SIGXCPU)</translation>
    </message>
    <message>
        <source>the script wrote past the file size limit (RLIMIT_FSIZE) and was killed (SIGXFSZ)</source>
        <translation>das Skript schrieb über die Dateigrößengrenze (RLIMIT_FSIZE) hinaus und wurde beendet (SIGXFSZ)</translation>
    </message>
    <message>
        <source> — some processes of the script&apos;s group could not be confirmed gone after %1 s; check with: ps -g %2</source>
        <translation> — für einige Prozesse der Skriptgruppe ließ sich nach %1 s nicht bestätigen, dass sie beendet sind; prüfen mit: ps -g %2</translation>
    </message>
    <message>
        <source>the run folder %1 is in use by another Tool Studio</source>
        <translation>der Laufordner %1 wird von einem anderen Tool Studio benutzt</translation>
    </message>
    <message>
        <source>cannot lock the run folder %1: %2</source>
        <translation>der Laufordner %1 kann nicht gesperrt werden: %2</translation>
    </message>
    <message>
        <source>[%1: %2 more bytes past the cap were discarded]
</source>
        <translation>[%1: %2 weitere Bytes über der Grenze wurden verworfen]
</translation>
    </message>
    <message>
        <source>cannot duplicate a directory fd: %1</source>
        <translation>Verzeichnis-Deskriptor kann nicht dupliziert werden: %1</translation>
    </message>
    <message>
        <source>cannot list %1: %2</source>
        <translation>%1 kann nicht aufgelistet werden: %2</translation>
    </message>
    <message>
        <source>cannot open %1/%2: %3</source>
        <translation>%1/%2 kann nicht geöffnet werden: %3</translation>
    </message>
    <message>
        <source>%1 was moved while the studio walked it; stopped there</source>
        <translation>%1 wurde verschoben, während das Studio es durchlief; dort angehalten</translation>
    </message>
    <message>
        <source>cannot remove %1: %2</source>
        <translation>%1 kann nicht entfernt werden: %2</translation>
    </message>
    <message>
        <source>%1 was replaced while the studio removed it; left alone</source>
        <translation>%1 wurde ersetzt, während das Studio es entfernte; unverändert gelassen</translation>
    </message>
    <message>
        <source>memory limit: the run&apos;s processes together reached the run&apos;s memory limit of %1 MiB (memory cgroup); the kernel killed %2 of them</source>
        <translation>Speichergrenze: Die Prozesse des Laufs haben zusammen die Speichergrenze des Laufs von %1 MiB erreicht (Memory-Cgroup); der Kernel hat %2 davon beendet</translation>
    </message>
    <message>
        <source>disk limit: the run wrote more than %1 MiB to its work dir (limits.work_dir_mb; %2 MiB counted); its process group was killed and its files were removed</source>
        <translation>Plattengrenze: Der Lauf hat mehr als %1 MiB in sein Arbeitsverzeichnis geschrieben (limits.work_dir_mb; %2 MiB gezählt); seine Prozessgruppe wurde beendet und seine Dateien wurden entfernt</translation>
    </message>
    <message>
        <source>disk limit: the file system holding the run&apos;s work dir has less than %1 MiB free (%2 MiB counted in the work dir); its process group was killed and its files were removed</source>
        <translation>Plattengrenze: Auf dem Dateisystem mit dem Arbeitsverzeichnis des Laufs sind weniger als %1 MiB frei (%2 MiB im Arbeitsverzeichnis gezählt); seine Prozessgruppe wurde beendet und seine Dateien wurden entfernt</translation>
    </message>
    <message>
        <source>cannot open the folder of %1: %2</source>
        <translation>Der Ordner von %1 kann nicht geöffnet werden: %2</translation>
    </message>
    <message>
        <source>cannot create the run folder %1: %2</source>
        <translation>Der Laufordner %1 kann nicht angelegt werden: %2</translation>
    </message>
    <message>
        <source>cannot create %1: %2</source>
        <translation>%1 kann nicht angelegt werden: %2</translation>
    </message>
    <message>
        <source>%1 is a symlink or not a directory</source>
        <translation>%1 ist ein symbolischer Link oder kein Verzeichnis</translation>
    </message>
    <message>
        <source>cannot open %1: %2</source>
        <translation>%1 kann nicht geöffnet werden: %2</translation>
    </message>
    <message>
        <source>its parent %1 (uid %2, mode %3) lets other users replace it</source>
        <translation>sein übergeordneter Ordner %1 (UID %2, Modus %3) lässt andere Benutzer ihn ersetzen</translation>
    </message>
    <message>
        <source>cannot be checked: %1</source>
        <translation>kann nicht geprüft werden: %1</translation>
    </message>
    <message>
        <source>is not a directory</source>
        <translation>ist kein Verzeichnis</translation>
    </message>
    <message>
        <source>belongs to uid %1, not to the studio&apos;s uid %2 (another user may have created it to read or swap the studio&apos;s runs)</source>
        <translation>gehört UID %1, nicht der UID %2 des Studios (ein anderer Benutzer könnte ihn angelegt haben, um die Läufe des Studios zu lesen oder auszutauschen)</translation>
    </message>
    <message>
        <source>is writable by group or others (mode %1)</source>
        <translation>ist für Gruppe oder andere beschreibbar (Modus %1)</translation>
    </message>
    <message>
        <source>no safe folder for run folders: %1; remove or fix them (as their owner or root)</source>
        <translation>kein sicherer Ort für Laufordner: %1; entfernen oder korrigieren (als Eigentümer oder root)</translation>
    </message>
    <message>
        <source>refusing %1 as the run folder base: %2; runs use %3 instead (remove %1 to use it again)</source>
        <translation>%1 wird als Basis der Laufordner abgelehnt: %2; Läufe verwenden stattdessen %3 (%1 entfernen, um es wieder zu verwenden)</translation>
    </message>
</context>
<context>
    <name>QuestionPrompt</name>
    <message>
        <source>  form (requestedSchema), one line per field:</source>
        <translation>  Formular (requestedSchema), eine Zeile je Feld:</translation>
    </message>
    <message numerus="yes">
        <source>    … %n more field(s) not shown; the whole schema is in the run&apos;s trace: toolstudio trace export PROJECT RUN (the call&apos;s person_asked event), or the window&apos;s Pending Calls dock</source>
        <translation>
            <numerusform>    … %n weiteres Feld nicht gezeigt; das ganze Schema steht in der Spur des Laufs: toolstudio trace export PROJECT RUN (das Ereignis person_asked des Aufrufs), oder im Dock „Wartende Aufrufe“ des Fensters</numerusform>
            <numerusform>    … %n weitere Felder nicht gezeigt; das ganze Schema steht in der Spur des Laufs: toolstudio trace export PROJECT RUN (das Ereignis person_asked des Aufrufs), oder im Dock „Wartende Aufrufe“ des Fensters</numerusform>
        </translation>
    </message>
    <message>
        <source>    (no fields)</source>
        <translation>    (keine Felder)</translation>
    </message>
    <message>
        <source>required %1 (not among the fields)</source>
        <translation>required %1 (nicht unter den Feldern)</translation>
    </message>
    <message>
        <source>    and the form&apos;s own: %1</source>
        <translation>    und die des Formulars selbst: %1</translation>
    </message>
    <message>
        <source>
  open in a browser (host %1): %2
  answer, once done there: {&quot;action&quot;: &quot;accept&quot;}, or {&quot;action&quot;: &quot;decline&quot;} or {&quot;action&quot;: &quot;cancel&quot;}; an error refuses it</source>
        <translation>
  im Browser öffnen (Host %1): %2
  Antwort, wenn dort erledigt: {&quot;action&quot;: &quot;accept&quot;}, oder {&quot;action&quot;: &quot;decline&quot;} oder {&quot;action&quot;: &quot;cancel&quot;}; ein Fehler lehnt ab</translation>
    </message>
    <message>
        <source>
  answer: {&quot;action&quot;: &quot;accept&quot;, &quot;content&quot;: {…}}, e.g. %1; {&quot;action&quot;: &quot;decline&quot;} or {&quot;action&quot;: &quot;cancel&quot;}; an error refuses it</source>
        <translation>
  Antwort: {&quot;action&quot;: &quot;accept&quot;, &quot;content&quot;: {…}}, z. B. %1; {&quot;action&quot;: &quot;decline&quot;} oder {&quot;action&quot;: &quot;cancel&quot;}; ein Fehler lehnt ab</translation>
    </message>
    <message>
        <source>
  tools (toolChoice %1):</source>
        <translation>
  Tools (toolChoice %1):</translation>
    </message>
    <message>
        <source>
  answer: the model&apos;s reply as a JSON string, &quot;text&quot;, or a tool call {&quot;content&quot;: [{&quot;type&quot;: &quot;tool_use&quot;, &quot;name&quot;: …, &quot;input&quot;: {…}}]}; an error refuses it</source>
        <translation>
  Antwort: die Antwort des Modells als JSON-Zeichenkette, &quot;Text&quot;, oder ein Tool-Aufruf {&quot;content&quot;: [{&quot;type&quot;: &quot;tool_use&quot;, &quot;name&quot;: …, &quot;input&quot;: {…}}]}; ein Fehler lehnt ab</translation>
    </message>
    <message>
        <source>
  answer: the model&apos;s reply as a JSON string, &quot;text&quot;; an error refuses it</source>
        <translation>
  Antwort: die Antwort des Modells als JSON-Zeichenkette, &quot;Text&quot;; ein Fehler lehnt ab</translation>
    </message>
    <message>
        <source>Reply text (or: !error MESSAGE to refuse): </source>
        <translation>Antworttext (oder: !error MELDUNG zum Ablehnen): </translation>
    </message>
    <message>
        <source>Result as JSON (or: !error MESSAGE, !retry MESSAGE): </source>
        <translation>Ergebnis als JSON (oder: !error MELDUNG, !retry MELDUNG): </translation>
    </message>
    <message>
        <source>That is not JSON (it stops being JSON at character %1). An answer here is JSON, e.g. %2</source>
        <translation>Das ist kein JSON (es hört bei Zeichen %1 auf, JSON zu sein). Eine Antwort hier ist JSON, z. B. %2</translation>
    </message>
    <message>
        <source>That holds a number too large to keep. An answer here is JSON, e.g. %1</source>
        <translation>Das enthält eine Zahl, die zu groß ist. Eine Antwort hier ist JSON, z. B. %1</translation>
    </message>
</context>
<context>
    <name>RequirementsInstallDialog</name>
    <message>
        <source>Install Requirements</source>
        <translation>Abhängigkeiten installieren</translation>
    </message>
    <message>
        <source>Installing into .toolstudio/venv: %1</source>
        <translation>Installation in .toolstudio/venv: %1</translation>
    </message>
    <message>
        <source>The install failed; the project loads as before.
%1</source>
        <translation>Die Installation ist fehlgeschlagen; das Projekt lädt wie zuvor.
%1</translation>
    </message>
</context>
<context>
    <name>RerunDialog</name>
    <message>
        <source>Rerun %1 from a Step</source>
        <translation>%1 ab einem Schritt erneut ausführen</translation>
    </message>
    <message>
        <source>The step to run for real again; the steps before it are memoized</source>
        <translation>Der Schritt, der wieder echt läuft; die Schritte davor kommen aus dem Memo</translation>
    </message>
    <message>
        <source>The step selected in the trace</source>
        <translation>Der im Ablauf ausgewählte Schritt</translation>
    </message>
    <message>
        <source>Original arguments (read-only):</source>
        <translation>Ursprüngliche Argumente (schreibgeschützt):</translation>
    </message>
    <message>
        <source>&amp;Arguments for the rerun:</source>
        <translation>&amp;Argumente für den neuen Lauf:</translation>
    </message>
    <message>
        <source>&amp;Rerun</source>
        <translation>E&amp;rneut ausführen</translation>
    </message>
    <message>
        <source>Start the new run (Ctrl+Return)</source>
        <translation>Den neuen Lauf starten (Strg+Eingabe)</translation>
    </message>
    <message>
        <source>Restore &amp;Original</source>
        <translation>&amp;Original wiederherstellen</translation>
    </message>
    <message>
        <source>Put the original arguments back into the editor</source>
        <translation>Die ursprünglichen Argumente wieder in den Editor setzen</translation>
    </message>
    <message>
        <source>&amp;Step:</source>
        <translation>&amp;Schritt:</translation>
    </message>
    <message>
        <source>Enter the arguments as a JSON object, e.g. {} for none.</source>
        <translation>Geben Sie die Argumente als JSON-Objekt ein, z. B. {} für keine.</translation>
    </message>
    <message>
        <source>The arguments must be a JSON object ({…}), not %1.</source>
        <translation>Die Argumente müssen ein JSON-Objekt ({…}) sein, nicht %1.</translation>
    </message>
    <message>
        <source>The input_schema of %1 refuses these arguments: %2</source>
        <translation>Das input_schema von %1 lehnt diese Argumente ab: %2</translation>
    </message>
    <message>
        <source>Steps 1 to %1 are answered from run %2&apos;s journal (memoized).</source>
        <translation>Die Schritte 1 bis %1 werden aus dem Journal von Lauf %2 beantwortet (Memo).</translation>
    </message>
    <message>
        <source>No step before it is memoized.</source>
        <translation>Davor kommt kein Schritt aus dem Memo.</translation>
    </message>
    <message>
        <source>Step %1 runs for real with the edited arguments (the script&apos;s stay on record as its original arguments), and every step after it too.</source>
        <translation>Schritt %1 läuft echt mit den geänderten Argumenten (die des Skripts bleiben als ursprüngliche Argumente aufgezeichnet), ebenso jeder spätere Schritt.</translation>
    </message>
    <message>
        <source>Step %1 and every step after it run for real.</source>
        <translation>Schritt %1 und jeder spätere Schritt laufen echt.</translation>
    </message>
    <message>
        <source>The arguments of this step in run %1 (read-only)</source>
        <translation>Die Argumente dieses Schritts in Lauf %1 (schreibgeschützt)</translation>
    </message>
    <message>
        <source>The arguments the step runs with in the new run (a JSON object)</source>
        <translation>Die Argumente, mit denen der Schritt im neuen Lauf läuft (ein JSON-Objekt)</translation>
    </message>
    <message>
        <source>of %1 · %2 (%3)</source>
        <translation>von %1 · %2 (%3)</translation>
    </message>
    <message>
        <source>of %1 · run %2 has no step %3</source>
        <translation>von %1 · Lauf %2 hat keinen Schritt %3</translation>
    </message>
    <message>
        <source>Run %1 has no step %2: choose another.</source>
        <translation>Lauf %1 hat keinen Schritt %2: Wählen Sie einen anderen.</translation>
    </message>
    <message>
        <source>Not valid JSON at %1</source>
        <translation>Kein gültiges JSON bei %1</translation>
    </message>
    <message>
        <source>This request cannot be sent: %1</source>
        <translation>Diese Anfrage kann nicht gesendet werden: %1</translation>
    </message>
    <message>
        <source>Step %1 sends the edited request (the script&apos;s stays on record as its original request), and every step after it runs for real too.</source>
        <translation>Schritt %1 sendet die bearbeitete Anfrage (die des Skripts bleibt als ursprüngliche Anfrage verzeichnet), und jeder Schritt danach läuft ebenfalls wirklich.</translation>
    </message>
</context>
<context>
    <name>RunCommands</name>
    <message>
        <source>&amp;Run</source>
        <translation>&amp;Ausführen</translation>
    </message>
    <message>
        <source>Save the script and run it in the sandbox (F5)</source>
        <translation>Das Skript speichern und in der Sandbox ausführen (F5)</translation>
    </message>
    <message>
        <source>S&amp;top</source>
        <translation>S&amp;toppen</translation>
    </message>
    <message>
        <source>Stop the run: cancel its steps and kill the script (Shift+F5)</source>
        <translation>Den Lauf stoppen: Schritte abbrechen und das Skript beenden (Umschalt+F5)</translation>
    </message>
    <message>
        <source>&amp;Answer Pending Call…</source>
        <translation>Wartenden Aufruf &amp;beantworten…</translation>
    </message>
    <message>
        <source>Answer the oldest call that waits for a person, or show a call held by step mode (F6)</source>
        <translation>Den ältesten Aufruf beantworten, der auf eine Person wartet, oder einen vom Schrittmodus angehaltenen Aufruf zeigen (F6)</translation>
    </message>
    <message>
        <source>Cannot Run</source>
        <translation>Ausführen nicht möglich</translation>
    </message>
    <message>
        <source>The project has no script to run.</source>
        <translation>Das Projekt hat kein Skript zum Ausführen.</translation>
    </message>
    <message>
        <source>Failed: %1</source>
        <translation>Fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>Could not start %1: %2</source>
        <translation>%1 konnte nicht gestartet werden: %2</translation>
    </message>
    <message>
        <source>Running…</source>
        <translation>Läuft…</translation>
    </message>
    <message>
        <source>Stopping…</source>
        <translation>Wird gestoppt…</translation>
    </message>
    <message>
        <source>Cannot Resume</source>
        <translation>Fortsetzen nicht möglich</translation>
    </message>
    <message>
        <source>Cannot Replay</source>
        <translation>Wiederabspielen nicht möglich</translation>
    </message>
    <message>
        <source>Resuming %1…</source>
        <translation>%1 wird fortgesetzt…</translation>
    </message>
    <message>
        <source>Replaying %1…</source>
        <translation>%1 wird wiederabgespielt…</translation>
    </message>
    <message>
        <source>The project is not trusted, so nothing of it runs: choose Trust Project in the bar above the editor.</source>
        <translation>Dem Projekt wird nicht vertraut, daher läuft nichts davon: Wählen Sie „Projekt vertrauen“ in der Leiste über dem Editor.</translation>
    </message>
    <message>
        <source>▶ Run %1 started: %2</source>
        <translation>▶ Lauf %1 gestartet: %2</translation>
    </message>
    <message>
        <source>#%1 %2 is waiting for an answer (Pending Calls dock, F6)</source>
        <translation>#%1 %2 wartet auf eine Antwort (Dock „Wartende Aufrufe“, F6)</translation>
    </message>
    <message>
        <source>Step mode: #%1 %2 is held before it runs</source>
        <translation>Schrittmodus: #%1 %2 wird vor dem Ausführen angehalten</translation>
    </message>
    <message>
        <source>■ %1 (exit code %2)</source>
        <translation>■ %1 (Exit-Code %2)</translation>
    </message>
    <message>
        <source>Run in Progress</source>
        <translation>Lauf aktiv</translation>
    </message>
    <message>
        <source>The run is waiting for an answer. Keep it for later (resume it from the Runs dock), or stop it?</source>
        <translation>Der Lauf wartet auf eine Antwort. Für später behalten (im Dock „Läufe“ fortsetzen) oder stoppen?</translation>
    </message>
    <message>
        <source>A run is in progress. Keep it for later (resume it from the Runs dock; its recorded steps are memoized), or stop it?</source>
        <translation>Ein Lauf ist im Gange. Für später behalten (im Dock „Läufe“ fortsetzen; seine aufgezeichneten Schritte kommen aus dem Memo) oder stoppen?</translation>
    </message>
    <message>
        <source>&amp;Keep for Later</source>
        <translation>Für später &amp;behalten</translation>
    </message>
    <message>
        <source>&amp;Stop Run</source>
        <translation>Lauf &amp;stoppen</translation>
    </message>
    <message>
        <source>Loading the Python tools… the run starts when they are loaded.</source>
        <translation>Die Python-Werkzeuge werden geladen … der Lauf beginnt, sobald sie geladen sind.</translation>
    </message>
</context>
<context>
    <name>RunCompareModel</name>
    <message>
        <source>The same call with the same outcome in both runs</source>
        <translation>Derselbe Aufruf mit demselben Ausgang in beiden Läufen</translation>
    </message>
    <message>
        <source>The same call (tool and arguments); its status or result differs</source>
        <translation>Derselbe Aufruf (Werkzeug und Argumente); Status oder Ergebnis unterscheiden sich</translation>
    </message>
    <message>
        <source>Only run A made this call</source>
        <translation>Nur Lauf A hat diesen Aufruf gemacht</translation>
    </message>
    <message>
        <source>Only run B made this call</source>
        <translation>Nur Lauf B hat diesen Aufruf gemacht</translation>
    </message>
    <message>
        <source>A #</source>
        <translation>A #</translation>
    </message>
    <message>
        <source>A tool</source>
        <translation>A Werkzeug</translation>
    </message>
    <message>
        <source>A status</source>
        <translation>A Status</translation>
    </message>
    <message>
        <source>A result / error</source>
        <translation>A Ergebnis / Fehler</translation>
    </message>
    <message>
        <source>A duration</source>
        <translation>A Dauer</translation>
    </message>
    <message>
        <source>B #</source>
        <translation>B #</translation>
    </message>
    <message>
        <source>B tool</source>
        <translation>B Werkzeug</translation>
    </message>
    <message>
        <source>B status</source>
        <translation>B Status</translation>
    </message>
    <message>
        <source>B result / error</source>
        <translation>B Ergebnis / Fehler</translation>
    </message>
    <message>
        <source>B duration</source>
        <translation>B Dauer</translation>
    </message>
</context>
<context>
    <name>RunComparePanel</name>
    <message>
        <source>Compare Runs</source>
        <translation>Läufe vergleichen</translation>
    </message>
    <message>
        <source>There is no run %1 in the journal.</source>
        <translation>Im Journal gibt es keinen Lauf %1.</translation>
    </message>
    <message numerus="yes">
        <source>&lt;b&gt;%1&lt;/b&gt;: run %2 — %3, %4, started %5, %n step(s)</source>
        <translation>
            <numerusform>&lt;b&gt;%1&lt;/b&gt;: Lauf %2 — %3, %4, gestartet %5, %n Schritt</numerusform>
            <numerusform>&lt;b&gt;%1&lt;/b&gt;: Lauf %2 — %3, %4, gestartet %5, %n Schritte</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 same · %2 changed · %3 only in A · %4 only in B</source>
        <translation>%1 gleich · %2 geändert · %3 nur in A · %4 nur in B</translation>
    </message>
    <message>
        <source>Compare %1 and %2</source>
        <translation>%1 und %2 vergleichen</translation>
    </message>
</context>
<context>
    <name>RunController</name>
    <message>
        <source>the run timed out after %1 s (run timeout; time spent waiting for a person not counted); the script&apos;s process group was killed</source>
        <translation>der Lauf überschritt nach %1 s sein Zeitlimit (Wartezeit auf eine Person nicht mitgezählt); die Prozessgruppe des Skripts wurde beendet</translation>
    </message>
    <message>
        <source>a run is already active; stop it first</source>
        <translation>ein Lauf ist bereits aktiv; stoppen Sie ihn zuerst</translation>
    </message>
    <message>
        <source>the project has no default script; name one</source>
        <translation>das Projekt hat kein Standardskript; geben Sie eines an</translation>
    </message>
    <message>
        <source>script not found: %1</source>
        <translation>Skript nicht gefunden: %1</translation>
    </message>
    <message>
        <source>no interpreter for %1 is installed (python3, bash or node)</source>
        <translation>für %1 ist kein Interpreter installiert (python3, bash oder node)</translation>
    </message>
    <message>
        <source>unknown script language for %1: use .py, .sh or .js</source>
        <translation>unbekannte Skriptsprache für %1: verwenden Sie .py, .sh oder .js</translation>
    </message>
    <message>
        <source>cannot open the journal %1: %2</source>
        <translation>das Journal %1 kann nicht geöffnet werden: %2</translation>
    </message>
    <message>
        <source>cannot create the run folder %1</source>
        <translation>der Laufordner %1 kann nicht angelegt werden</translation>
    </message>
    <message>
        <source>cannot copy %1 into the run folder</source>
        <translation>%1 kann nicht in den Laufordner kopiert werden</translation>
    </message>
    <message>
        <source>cannot start the sandbox: %1</source>
        <translation>die Sandbox kann nicht gestartet werden: %1</translation>
    </message>
    <message>
        <source>protocol error on the tools bridge: %1</source>
        <translation>Protokollfehler auf der Tool-Brücke: %1</translation>
    </message>
    <message>
        <source>the run was stopped</source>
        <translation>der Lauf wurde gestoppt</translation>
    </message>
    <message>
        <source>no run is active</source>
        <translation>kein Lauf ist aktiv</translation>
    </message>
    <message>
        <source>run %1 is %2; only a suspended run can be resumed</source>
        <translation>Lauf %1 ist %2; nur ein unterbrochener Lauf kann fortgesetzt werden</translation>
    </message>
    <message>
        <source>run %1 has no step %2 (it has %3)</source>
        <translation>Lauf %1 hat keinen Schritt %2 (er hat %3)</translation>
    </message>
    <message>
        <source>the %1 interpreter set in the preferences (%2) is not an executable file; correct it, or clear it to use the default</source>
        <translation>der in den Einstellungen gewählte %1-Interpreter (%2) ist keine ausführbare Datei; korrigieren Sie ihn oder leeren Sie das Feld, um den Standard zu verwenden</translation>
    </message>
    <message>
        <source>cannot open the work dir %1</source>
        <translation>Das Arbeitsverzeichnis %1 kann nicht geöffnet werden</translation>
    </message>
    <message>
        <source>kept for later; Resume replays it</source>
        <translation>für später behalten; Fortsetzen spielt ihn erneut ab</translation>
    </message>
    <message>
        <source>step %1 cannot be rerun with this request: %2</source>
        <translation>Schritt %1 kann mit dieser Anfrage nicht erneut ausgeführt werden: %2</translation>
    </message>
</context>
<context>
    <name>RunStatusText</name>
    <message>
        <source>Waiting for an answer</source>
        <translation>Wartet auf eine Antwort</translation>
    </message>
    <message>
        <source>Waiting for an answer to %1</source>
        <translation>Wartet auf eine Antwort für %1</translation>
    </message>
    <message>
        <source>Waiting for answers to %1 and one more call</source>
        <translation>Wartet auf Antworten für %1 und einen weiteren Aufruf</translation>
    </message>
    <message numerus="yes">
        <source>Waiting for answers to %1 and %n more calls</source>
        <translation>
            <numerusform>Wartet auf Antworten für %1 und %n weiteren Aufruf</numerusform>
            <numerusform>Wartet auf Antworten für %1 und %n weitere Aufrufe</numerusform>
        </translation>
    </message>
    <message>
        <source>Completed in %1 s</source>
        <translation>Abgeschlossen in %1 s</translation>
    </message>
    <message>
        <source>Failed: the script exited with code %1</source>
        <translation>Fehlgeschlagen: das Skript endete mit Code %1</translation>
    </message>
    <message>
        <source>Failed: %1</source>
        <translation>Fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>Timed out</source>
        <translation>Zeit überschritten</translation>
    </message>
    <message>
        <source>Timed out: %1</source>
        <translation>Zeit überschritten: %1</translation>
    </message>
    <message>
        <source>Stopped after %1 s</source>
        <translation>Nach %1 s gestoppt</translation>
    </message>
    <message>
        <source>Suspended while waiting for an answer</source>
        <translation>Angehalten, während auf eine Antwort gewartet wird</translation>
    </message>
    <message>
        <source>Running…</source>
        <translation>Läuft…</translation>
    </message>
</context>
<context>
    <name>RunViews</name>
    <message>
        <source>Search the output (Enter: next, Shift+Enter: previous)</source>
        <translation>Ausgabe durchsuchen (Eingabe: nächster, Umschalt+Eingabe: vorheriger Treffer)</translation>
    </message>
    <message>
        <source>Not found in the output: %1</source>
        <translation>Nicht in der Ausgabe gefunden: %1</translation>
    </message>
    <message>
        <source>Run %1 from the journal</source>
        <translation>Lauf %1 aus dem Journal</translation>
    </message>
    <message>
        <source>Run %1 imported from %2 (read-only)</source>
        <translation>Lauf %1 aus %2 importiert (schreibgeschützt)</translation>
    </message>
    <message numerus="yes">
        <source>Imported run %1: %2, %n step(s) (read-only)</source>
        <translation>
            <numerusform>Importierter Lauf %1: %2, %n Schritt (schreibgeschützt)</numerusform>
            <numerusform>Importierter Lauf %1: %2, %n Schritte (schreibgeschützt)</numerusform>
        </translation>
    </message>
    <message>
        <source>Open Run</source>
        <translation>Lauf öffnen</translation>
    </message>
    <message>
        <source>Import Run</source>
        <translation>Lauf importieren</translation>
    </message>
    <message>
        <source>Stop the run before importing another one.</source>
        <translation>Den Lauf anhalten, bevor ein anderer importiert wird.</translation>
    </message>
    <message>
        <source>Run JSON (*.json)</source>
        <translation>Lauf-JSON (*.json)</translation>
    </message>
    <message>
        <source>Cannot import the run: %1
Only run JSON exported by Tool Studio (format &quot;toolstudio-run&quot;, version 1) can be imported.</source>
        <translation>Der Lauf kann nicht importiert werden: %1
Nur von Tool Studio exportiertes Lauf-JSON (Format „toolstudio-run“, Version 1) kann importiert werden.</translation>
    </message>
    <message>
        <source>&amp;Import Run…</source>
        <translation>Lauf &amp;importieren…</translation>
    </message>
    <message>
        <source>Show a run exported as JSON, read-only (docs/run-export.md)</source>
        <translation>Einen als JSON exportierten Lauf schreibgeschützt anzeigen (docs/run-export.md)</translation>
    </message>
</context>
<context>
    <name>RunsPanel</name>
    <message>
        <source>Run</source>
        <comment>runs list column: a run&apos;s id</comment>
        <translation>Lauf</translation>
    </message>
    <message>
        <source>Script</source>
        <translation>Skript</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Status</translation>
    </message>
    <message>
        <source>Started</source>
        <translation>Gestartet</translation>
    </message>
    <message>
        <source>Duration</source>
        <translation>Dauer</translation>
    </message>
    <message>
        <source>Kind</source>
        <comment>runs list column: run, replay, rerun, …</comment>
        <translation>Art</translation>
    </message>
    <message>
        <source>&amp;Open</source>
        <translation>Ö&amp;ffnen</translation>
    </message>
    <message>
        <source>Show the selected run&apos;s trace and output</source>
        <translation>Ablauf und Ausgabe des ausgewählten Laufs zeigen</translation>
    </message>
    <message>
        <source>&amp;Replay</source>
        <translation>&amp;Wiederabspielen</translation>
    </message>
    <message>
        <source>Run the selected run&apos;s script again with its recorded results memoized</source>
        <translation>Das Skript des ausgewählten Laufs erneut ausführen, mit den aufgezeichneten Ergebnissen als Memo</translation>
    </message>
    <message>
        <source>Res&amp;ume</source>
        <translation>F&amp;ortsetzen</translation>
    </message>
    <message>
        <source>Continue a suspended run up to its open call</source>
        <translation>Einen unterbrochenen Lauf bis zu seinem offenen Aufruf fortsetzen</translation>
    </message>
    <message>
        <source>Export &amp;JSON…</source>
        <translation>Als &amp;JSON exportieren…</translation>
    </message>
    <message>
        <source>Save the selected run as JSON (docs/run-export.md)</source>
        <translation>Den ausgewählten Lauf als JSON speichern (docs/run-export.md)</translation>
    </message>
    <message>
        <source>Export &amp;Chrome Trace…</source>
        <translation>Als &amp;Chrome-Trace exportieren…</translation>
    </message>
    <message>
        <source>Save the selected run as Chrome trace-event JSON (opens in Perfetto)</source>
        <translation>Den ausgewählten Lauf als Chrome-Trace-Event-JSON speichern (öffnet sich in Perfetto)</translation>
    </message>
    <message>
        <source>Co&amp;mpare</source>
        <translation>Ver&amp;gleichen</translation>
    </message>
    <message>
        <source>Compare the two selected runs step by step (Ctrl+click to select two)</source>
        <translation>Die zwei ausgewählten Läufe Schritt für Schritt vergleichen (Strg+Klick wählt zwei aus)</translation>
    </message>
    <message>
        <source>Only a suspended run can be resumed</source>
        <translation>Nur ein unterbrochener Lauf kann fortgesetzt werden</translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation>%1 von %2</translation>
    </message>
    <message>
        <source>Export Chrome Trace</source>
        <translation>Chrome-Trace exportieren</translation>
    </message>
    <message>
        <source>Export Run as JSON</source>
        <translation>Lauf als JSON exportieren</translation>
    </message>
    <message>
        <source>JSON files (*.json)</source>
        <translation>JSON-Dateien (*.json)</translation>
    </message>
    <message>
        <source>Export Run</source>
        <translation>Lauf exportieren</translation>
    </message>
    <message>
        <source>Exported %1 to %2</source>
        <translation>%1 nach %2 exportiert</translation>
    </message>
    <message>
        <source>Compare Runs</source>
        <translation>Läufe vergleichen</translation>
    </message>
    <message>
        <source>%1 s since resume</source>
        <comment>runs list: a resumed run&apos;s duration counts from the resume</comment>
        <translation>%1 s seit Fortsetzung</translation>
    </message>
    <message>
        <source>Resumed at %1, first started at %2. The duration counts from the latest resume, as the status bar does: how long the run ran before it was suspended is not known.</source>
        <translation>Fortgesetzt um %1, zuerst gestartet um %2. Die Dauer zählt ab der letzten Fortsetzung, wie in der Statusleiste: Wie lange der Lauf vor der Unterbrechung lief, ist nicht bekannt.</translation>
    </message>
    <message>
        <source>&amp;Delete…</source>
        <translation>&amp;Löschen…</translation>
    </message>
    <message>
        <source>run %1</source>
        <translation>Lauf %1</translation>
    </message>
    <message numerus="yes">
        <source>%n runs</source>
        <translation>
            <numerusform>%n Lauf</numerusform>
            <numerusform>%n Läufe</numerusform>
        </translation>
    </message>
    <message>
        <source>Delete Runs</source>
        <translation>Läufe löschen</translation>
    </message>
    <message>
        <source>Delete %1 with its steps, output and events from the journal? This cannot be undone.</source>
        <translation>%1 mit Schritten, Ausgabe und Ereignissen aus dem Journal löschen? Das lässt sich nicht rückgängig machen.</translation>
    </message>
    <message>
        <source>Nothing was deleted: %1</source>
        <translation>Nichts wurde gelöscht: %1</translation>
    </message>
    <message>
        <source>Not deleted:
%1</source>
        <translation>Nicht gelöscht:
%1</translation>
    </message>
    <message numerus="yes">
        <source>Deleted %n run(s)</source>
        <translation>
            <numerusform>%n Lauf gelöscht</numerusform>
            <numerusform>%n Läufe gelöscht</numerusform>
        </translation>
    </message>
    <message>
        <source>Resume</source>
        <translation>Fortsetzen</translation>
    </message>
    <message>
        <source>Dismiss</source>
        <translation>Ausblenden</translation>
    </message>
    <message>
        <source>Run %1 (%2) was suspended: the studio that ran it exited while it was running or waiting. Resume runs its script again with the recorded steps memoized, up to its open call.</source>
        <translation>Lauf %1 (%2) wurde unterbrochen: Das Studio, das ihn ausführte, wurde beendet, während er lief oder wartete. Fortsetzen führt sein Skript erneut aus; die aufgezeichneten Schritte kommen aus dem Memo, bis zu seinem offenen Aufruf.</translation>
    </message>
    <message>
        <source>C&amp;lean Up…</source>
        <translation>&amp;Aufräumen…</translation>
    </message>
    <message>
        <source>Delete old runs by age or count and compact the journal</source>
        <translation>Alte Läufe nach Alter oder Anzahl löschen und das Journal verdichten</translation>
    </message>
    <message>
        <source>Clean Up Runs</source>
        <translation>Läufe aufräumen</translation>
    </message>
    <message>
        <source>%1; the journal was not compacted: %2</source>
        <translation>%1; das Journal wurde nicht verdichtet: %2</translation>
    </message>
    <message>
        <source>%1; the journal went from %2 to %3</source>
        <translation>%1; das Journal ging von %2 auf %3 zurück</translation>
    </message>
    <message>
        <source>Delete the selected runs and their traces from the journal</source>
        <translation>Die ausgewählten Läufe und ihre Traces aus dem Journal löschen</translation>
    </message>
    <message>
        <source>Mo&amp;re</source>
        <translation>&amp;Mehr</translation>
    </message>
    <message>
        <source>Export, delete and clean up runs</source>
        <translation>Läufe exportieren, löschen und aufräumen</translation>
    </message>
</context>
<context>
    <name>SamplingMediaView</name>
    <message>
        <source>not played here</source>
        <translation>hier nicht abgespielt</translation>
    </message>
</context>
<context>
    <name>SamplingModelCall</name>
    <message>
        <source>model &apos;%1&apos; is answered by a person (provider manual); choose another</source>
        <translation>Modell „%1“ wird von einer Person beantwortet (Anbieter manual); wählen Sie ein anderes</translation>
    </message>
    <message>
        <source>the question carries no request for a model</source>
        <translation>die Frage enthält keine Anfrage für ein Modell</translation>
    </message>
    <message>
        <source>this request cannot be given to a model: %1</source>
        <translation>diese Anfrage kann keinem Modell gegeben werden: %1</translation>
    </message>
    <message>
        <source>the request has no messages for a model</source>
        <translation>die Anfrage hat keine Nachrichten für ein Modell</translation>
    </message>
    <message>
        <source>model &apos;%1&apos; answered with tool calls, not text; ask again or write the reply</source>
        <translation>Modell „%1“ hat mit Werkzeugaufrufen statt Text geantwortet; fragen Sie erneut oder schreiben Sie die Antwort</translation>
    </message>
    <message>
        <source>model &apos;%1&apos; answered with no text; ask again or write the reply</source>
        <translation>Modell „%1“ hat ohne Text geantwortet; fragen Sie erneut oder schreiben Sie die Antwort</translation>
    </message>
    <message>
        <source>model &apos;%1&apos; is a mock: its turns answer; the server&apos;s temperature and stop sequences are not used</source>
        <translation>Modell „%1“ ist ein Mock: seine Züge antworten; Temperatur und Stoppsequenzen des Servers werden nicht verwendet</translation>
    </message>
    <message>
        <source>temperature %1 asked; model &apos;%2&apos; sets its own (%3) in its params</source>
        <translation>Temperatur %1 erbeten; Modell „%2“ setzt in seinen params eine eigene (%3)</translation>
    </message>
    <message>
        <source>temperature %1 asked is outside %2 to %3, what %4 takes; not sent</source>
        <translation>die erbetene Temperatur %1 liegt außerhalb von %2 bis %3, was %4 annimmt; nicht gesendet</translation>
    </message>
    <message>
        <source>stop sequences asked; model &apos;%1&apos; sets its own &quot;%2&quot; in its params</source>
        <translation>Stoppsequenzen erbeten; Modell „%1“ setzt in seinen params eigene („%2“)</translation>
    </message>
    <message>
        <source>maxTokens %1 asked; at most %2 sent, as model &apos;%3&apos; sets no max_tokens of its own in its params (set one to allow more)</source>
        <translation>maxTokens %1 erbeten; höchstens %2 gesendet, da Modell „%3“ in seinen params kein eigenes max_tokens setzt (setzen Sie eines, um mehr zuzulassen)</translation>
    </message>
    <message numerus="yes">
        <source>%n audio clip(s) not sent: anthropic takes no audio (model &apos;%1&apos;)</source>
        <translation>
            <numerusform>%n Audioclip nicht gesendet: anthropic nimmt kein Audio an (Modell „%1“)</numerusform>
            <numerusform>%n Audioclips nicht gesendet: anthropic nimmt kein Audio an (Modell „%1“)</numerusform>
        </translation>
    </message>
    <message>
        <source>model &apos;%1&apos; wrote arguments of call %2 that are no JSON object (%3); ask again or answer by hand</source>
        <translation>Modell „%1“ hat Argumente für Aufruf %2 geschrieben, die kein JSON-Objekt sind (%3); erneut fragen oder von Hand antworten</translation>
    </message>
</context>
<context>
    <name>SamplingModelPanel</name>
    <message>
        <source>Or ask a &amp;model:</source>
        <translation>Oder ein &amp;Modell fragen:</translation>
    </message>
    <message>
        <source>Ask Model</source>
        <translation>Modell fragen</translation>
    </message>
    <message>
        <source>Send the server&apos;s messages to the chosen model; its text fills the reply, which you may edit before Send Reply</source>
        <translation>Die Nachrichten des Servers an das gewählte Modell senden; sein Text füllt die Antwort, die Sie vor „Antwort senden“ bearbeiten können</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>Anhalten</translation>
    </message>
    <message>
        <source>Stop asking the model; nothing is filled in or sent</source>
        <translation>Das Modell nicht weiter fragen; nichts wird eingetragen oder gesendet</translation>
    </message>
    <message>
        <source>The server&apos;s messages are not at hand for a model here; write the reply.</source>
        <translation>Die Nachrichten des Servers stehen hier für kein Modell bereit; schreiben Sie die Antwort.</translation>
    </message>
    <message>
        <source>A model cannot be asked: %1</source>
        <translation>Kein Modell kann gefragt werden: %1</translation>
    </message>
    <message>
        <source>The project&apos;s models that answer by themselves (not provider manual)</source>
        <translation>Die Modelle des Projekts, die selbst antworten (nicht Anbieter manual)</translation>
    </message>
    <message>
        <source>No model to ask: add one to &quot;models&quot; in toolstudio.json (provider openai-chat, anthropic or mock; docs/user/models.md &quot;Declaring models&quot;), its key as a secret (Tools ▸ Secrets…)</source>
        <translation>Kein Modell zum Fragen: Fügen Sie eines unter „models“ in toolstudio.json hinzu (Anbieter openai-chat, anthropic oder mock; docs/user/models.md „Declaring models“), seinen Schlüssel als Geheimnis (Werkzeuge ▸ Geheimnisse…)</translation>
    </message>
    <message>
        <source>The project&apos;s secrets cannot be read: %1</source>
        <translation>Die Geheimnisse des Projekts können nicht gelesen werden: %1</translation>
    </message>
    <message>
        <source>Model &apos;%1&apos; did not answer; nothing was sent to the server: %2</source>
        <translation>Modell „%1“ hat nicht geantwortet; nichts wurde an den Server gesendet: %2</translation>
    </message>
    <message>
        <source>Model &apos;%1&apos; wrote the reply (stop reason %2). Edit it or Send Reply; an edited reply is sent as the person&apos;s.</source>
        <translation>Modell „%1“ hat die Antwort geschrieben (Stoppgrund %2). Bearbeiten Sie sie oder senden Sie sie; eine bearbeitete Antwort wird als die der Person gesendet.</translation>
    </message>
    <message>
        <source>Asking model &apos;%1&apos;…</source>
        <translation>Frage Modell „%1“…</translation>
    </message>
    <message>
        <source>Stopped asking the model.</source>
        <translation>Das Modell wird nicht weiter gefragt.</translation>
    </message>
    <message>
        <source>The server prefers a model like &quot;%1&quot;: &apos;%2&apos; is chosen.</source>
        <translation>Der Server bevorzugt ein Modell wie „%1“: „%2“ ist gewählt.</translation>
    </message>
    <message>
        <source>The server prefers a model like %1; none of the project&apos;s models matches.</source>
        <translation>Der Server bevorzugt ein Modell wie %1; keines der Modelle des Projekts passt.</translation>
    </message>
    <message>
        <source>intelligence</source>
        <translation>Intelligenz</translation>
    </message>
    <message>
        <source>speed</source>
        <translation>Geschwindigkeit</translation>
    </message>
    <message>
        <source>cost</source>
        <translation>Kosten</translation>
    </message>
    <message>
        <source>Its priorities (shown, not acted on): %1.</source>
        <translation>Seine Prioritäten (angezeigt, nicht befolgt): %1.</translation>
    </message>
    <message>
        <source>Not as asked: %1.</source>
        <translation>Nicht wie erbeten: %1.</translation>
    </message>
    <message>
        <source>The reply names the model %1: the server gets that id.</source>
        <translation>Die Antwort nennt das Modell %1: der Server erhält diese Kennung.</translation>
    </message>
    <message numerus="yes">
        <source>%n block(s) of the messages (an image or audio a model cannot take, in a message or a tool&apos;s result) are not sent to a model, each replaced by a note in the text.</source>
        <translation>
            <numerusform>%n Block der Nachrichten (ein Bild oder Audio, das ein Modell nicht annimmt, in einer Nachricht oder dem Ergebnis eines Tools) wird keinem Modell gesendet, ersetzt durch einen Hinweis im Text.</numerusform>
            <numerusform>%n Blöcke der Nachrichten (ein Bild oder Audio, das ein Modell nicht annimmt, in einer Nachricht oder dem Ergebnis eines Tools) werden keinem Modell gesendet, jeder ersetzt durch einen Hinweis im Text.</numerusform>
        </translation>
    </message>
    <message>
        <source>Model &apos;%1&apos; answered with a tool call (stop reason toolUse): see it under the tools; Send Tool Call sends it.</source>
        <translation>Modell „%1“ hat mit einem Tool-Aufruf geantwortet (Stoppgrund toolUse): siehe unter den Tools; „Tool-Aufruf senden“ sendet ihn.</translation>
    </message>
</context>
<context>
    <name>SamplingToolsView</name>
    <message>
        <source>Tool</source>
        <translation>Tool</translation>
    </message>
    <message>
        <source>Description</source>
        <translation>Beschreibung</translation>
    </message>
    <message>
        <source>View &amp;Schema…</source>
        <translation>&amp;Schema ansehen…</translation>
    </message>
    <message>
        <source>Show the chosen tool&apos;s inputSchema as the server sent it</source>
        <translation>Das inputSchema des gewählten Tools zeigen, wie der Server es gesendet hat</translation>
    </message>
    <message>
        <source>Send &amp;Tool Call</source>
        <translation>&amp;Tool-Aufruf senden</translation>
    </message>
    <message>
        <source>Answer the server with a call of the chosen tool and these arguments (a tool_use block, stopReason toolUse): the server runs the tool and asks again with its result</source>
        <translation>Dem Server mit einem Aufruf des gewählten Tools und diesen Argumenten antworten (ein tool_use-Block, stopReason toolUse): der Server führt das Tool aus und fragt mit dessen Ergebnis erneut</translation>
    </message>
    <message numerus="yes">
        <source>The server offers %n tool(s) and requires a call of one (toolChoice &quot;required&quot;):</source>
        <translation>
            <numerusform>Der Server bietet %n Tool an und verlangt einen Aufruf (toolChoice „required“):</numerusform>
            <numerusform>Der Server bietet %n Tools an und verlangt den Aufruf eines davon (toolChoice „required“):</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>The server offers %n tool(s) but asks for no call of them (toolChoice &quot;none&quot;): reply with text.</source>
        <translation>
            <numerusform>Der Server bietet %n Tool an, will aber keinen Aufruf (toolChoice „none“): mit Text antworten.</numerusform>
            <numerusform>Der Server bietet %n Tools an, will aber keinen Aufruf (toolChoice „none“): mit Text antworten.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>The server offers %n tool(s) (toolChoice &quot;%1&quot;): reply with text or a call of one.</source>
        <translation>
            <numerusform>Der Server bietet %n Tool an (toolChoice „%1“): mit Text oder einem Aufruf antworten.</numerusform>
            <numerusform>Der Server bietet %n Tools an (toolChoice „%1“): mit Text oder dem Aufruf eines davon antworten.</numerusform>
        </translation>
    </message>
    <message>
        <source>Arguments of %1:</source>
        <translation>Argumente von %1:</translation>
    </message>
    <message numerus="yes">
        <source>The model calls %1 and %n more tool(s); Send Tool Call sends all its calls, unless you edit the first.</source>
        <translation>
            <numerusform>Das Modell ruft %1 und %n weiteres Tool auf; „Tool-Aufruf senden“ sendet alle seine Aufrufe, außer Sie bearbeiten den ersten.</numerusform>
            <numerusform>Das Modell ruft %1 und %n weitere Tools auf; „Tool-Aufruf senden“ sendet alle seine Aufrufe, außer Sie bearbeiten den ersten.</numerusform>
        </translation>
    </message>
    <message>
        <source>The model calls %1: edit its arguments or Send Tool Call; an edited call is sent as the person&apos;s.</source>
        <translation>Das Modell ruft %1 auf: Argumente bearbeiten oder „Tool-Aufruf senden“; ein bearbeiteter Aufruf wird als der der Person gesendet.</translation>
    </message>
    <message>
        <source>inputSchema of %1</source>
        <translation>inputSchema von %1</translation>
    </message>
</context>
<context>
    <name>SandboxProcess</name>
    <message>
        <source>the sandbox is already running</source>
        <translation>die Sandbox läuft bereits</translation>
    </message>
    <message>
        <source>the sandbox launcher toolstudio-sandbox was not found; reinstall Tool Studio or set TOOLSTUDIO_SANDBOX</source>
        <translation>der Sandbox-Starter toolstudio-sandbox wurde nicht gefunden; installieren Sie Tool Studio neu oder setzen Sie TOOLSTUDIO_SANDBOX</translation>
    </message>
    <message>
        <source>cannot create the tools bridge (socketpair): %1</source>
        <translation>die Tool-Brücke kann nicht erstellt werden (socketpair): %1</translation>
    </message>
    <message>
        <source>cannot create the sandbox status channel (socketpair): %1</source>
        <translation>der Statuskanal der Sandbox kann nicht erstellt werden (socketpair): %1</translation>
    </message>
    <message>
        <source>cannot create the script&apos;s output pipes: %1</source>
        <translation>die Ausgabe-Pipes des Skripts können nicht erstellt werden: %1</translation>
    </message>
    <message>
        <source>cannot start the sandbox launcher %1: %2</source>
        <translation>der Sandbox-Starter %1 kann nicht gestartet werden: %2</translation>
    </message>
    <message>
        <source>cannot hand the sandbox policy to the launcher (memfd): %1</source>
        <translation>Die Sandbox-Richtlinie kann dem Launcher nicht übergeben werden (memfd): %1</translation>
    </message>
</context>
<context>
    <name>SchemaForm</name>
    <message>
        <source>integer</source>
        <translation>Ganzzahl</translation>
    </message>
    <message>
        <source>number</source>
        <translation>Zahl</translation>
    </message>
    <message>
        <source>%1 from %2 to %3</source>
        <translation>%1 von %2 bis %3</translation>
    </message>
    <message>
        <source>%1 ≥ %2</source>
        <translation>%1 ≥ %2</translation>
    </message>
    <message>
        <source>%1 ≤ %2</source>
        <translation>%1 ≤ %2</translation>
    </message>
    <message>
        <source>enter an integer</source>
        <translation>geben Sie eine Ganzzahl ein</translation>
    </message>
    <message>
        <source>enter a number</source>
        <translation>geben Sie eine Zahl ein</translation>
    </message>
    <message>
        <source>“%1” is not a number</source>
        <translation>„%1“ ist keine Zahl</translation>
    </message>
    <message>
        <source>true</source>
        <translation>wahr</translation>
    </message>
    <message>
        <source>false</source>
        <translation>falsch</translation>
    </message>
    <message>
        <source>JSON value</source>
        <translation>JSON-Wert</translation>
    </message>
    <message>
        <source>not valid JSON</source>
        <translation>kein gültiges JSON</translation>
    </message>
    <message>
        <source>required</source>
        <translation>erforderlich</translation>
    </message>
    <message>
        <source>Add item</source>
        <translation>Element hinzufügen</translation>
    </message>
    <message>
        <source>Move up</source>
        <translation>Nach oben</translation>
    </message>
    <message>
        <source>Move down</source>
        <translation>Nach unten</translation>
    </message>
    <message>
        <source>Remove this item</source>
        <translation>Dieses Element entfernen</translation>
    </message>
    <message>
        <source>option %1</source>
        <translation>Variante %1</translation>
    </message>
    <message>
        <source>Raw &amp;JSON</source>
        <translation>Rohes &amp;JSON</translation>
    </message>
    <message>
        <source>Edit the value as JSON text; the form follows</source>
        <translation>Den Wert als JSON-Text bearbeiten; das Formular folgt</translation>
    </message>
    <message>
        <source>Valid</source>
        <translation>Gültig</translation>
    </message>
    <message>
        <source>malformed JSON at %1</source>
        <translation>fehlerhaftes JSON bei %1</translation>
    </message>
    <message>
        <source>Default %1: shown, not sent while unticked</source>
        <translation>Vorgabe %1: angezeigt, aber nicht gesendet, solange nicht angehakt</translation>
    </message>
    <message>
        <source>Tick to send this property; unticked or left empty it is omitted</source>
        <translation>Ankreuzen, um diese Eigenschaft zu senden; nicht angekreuzt oder leer wird sie weggelassen</translation>
    </message>
    <message numerus="yes">
        <source>%n more</source>
        <comment>the end of a long list of field names</comment>
        <translation>
            <numerusform>%n weiteres</numerusform>
            <numerusform>%n weitere</numerusform>
        </translation>
    </message>
    <message>
        <source>%1, %2</source>
        <comment>a list of field names</comment>
        <translation>%1, %2</translation>
    </message>
    <message>
        <source>%1 and %2</source>
        <comment>the last two of a list of field names</comment>
        <translation>%1 und %2</translation>
    </message>
    <message numerus="yes">
        <source>Required, still empty: %1</source>
        <comment>%1: the required fields the person has not filled in</comment>
        <translation>
            <numerusform>Erforderlich, noch leer: %1</numerusform>
            <numerusform>Erforderlich, noch leer: %1</numerusform>
        </translation>
    </message>
    <message>
        <source>The schema allows an empty text, so the form can be sent as it is (&quot;&quot; for these); type a value if one is needed</source>
        <translation>Das Schema erlaubt einen leeren Text, daher kann das Formular so gesendet werden (&quot;&quot; für diese); geben Sie einen Wert ein, wenn einer gebraucht wird</translation>
    </message>
</context>
<context>
    <name>ScriptBox</name>
    <message>
        <source>The agent script to edit and run</source>
        <translation>Das Agentenskript, das bearbeitet und ausgeführt wird</translation>
    </message>
    <message>
        <source>%1: the agent script to edit and run</source>
        <translation>%1: das Agentenskript, das bearbeitet und ausgeführt wird</translation>
    </message>
</context>
<context>
    <name>ScriptEditor</name>
    <message>
        <source>Cannot open %1: %2</source>
        <translation>%1 kann nicht geöffnet werden: %2</translation>
    </message>
    <message>
        <source>Cannot read %1: %2</source>
        <translation>%1 kann nicht gelesen werden: %2</translation>
    </message>
    <message>
        <source>No file to save to.</source>
        <translation>Keine Datei zum Speichern.</translation>
    </message>
    <message>
        <source>Cannot save %1: %2</source>
        <translation>%1 kann nicht gespeichert werden: %2</translation>
    </message>
    <message>
        <source>named in the traceback</source>
        <translation>im Traceback genannt</translation>
    </message>
</context>
<context>
    <name>ScriptTabs</name>
    <message>
        <source>Unsaved Changes</source>
        <translation>Ungespeicherte Änderungen</translation>
    </message>
    <message>
        <source>%1 has unsaved changes. Save them?</source>
        <translation>%1 hat ungespeicherte Änderungen. Speichern?</translation>
    </message>
    <message>
        <source>Cannot Save Script</source>
        <translation>Skript kann nicht gespeichert werden</translation>
    </message>
    <message>
        <source>Go to Line</source>
        <translation>Gehe zu Zeile</translation>
    </message>
    <message>
        <source>Line (1–%1):</source>
        <translation>Zeile (1–%1):</translation>
    </message>
    <message>
        <source>%1 changed on disk and was reloaded</source>
        <translation>%1 wurde auf der Festplatte geändert und neu geladen</translation>
    </message>
    <message>
        <source>File Changed on Disk</source>
        <translation>Datei auf der Festplatte geändert</translation>
    </message>
    <message>
        <source>%1 was changed outside Tool Studio, and you have unsaved changes. Reload it and lose your changes?</source>
        <translation>%1 wurde außerhalb von Tool Studio geändert, und Sie haben ungespeicherte Änderungen. Neu laden und Ihre Änderungen verwerfen?</translation>
    </message>
</context>
<context>
    <name>SecretsDialog</name>
    <message>
        <source>Secrets</source>
        <translation>Secrets</translation>
    </message>
    <message>
        <source>Secrets reach Python tools and command handlers as environment variables, never scripts in the sandbox, and are masked in every view and export. They are stored outside the project, readable only by you:
%1</source>
        <translation>Secrets erreichen Python-Tools und command-Handler als Umgebungsvariablen, nie Skripte in der Sandbox, und werden in jeder Ansicht und jedem Export maskiert. Sie liegen außerhalb des Projekts und sind nur für Sie lesbar:
%1</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Name</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>Wert</translation>
    </message>
    <message>
        <source>Show</source>
        <translation>Zeigen</translation>
    </message>
    <message>
        <source>&amp;Remove…</source>
        <translation>&amp;Entfernen…</translation>
    </message>
    <message>
        <source>Delete the selected secret (Delete)</source>
        <translation>Das ausgewählte Secret löschen (Entf)</translation>
    </message>
    <message>
        <source>&amp;Name:</source>
        <translation>&amp;Name:</translation>
    </message>
    <message>
        <source>&amp;Value:</source>
        <translation>&amp;Wert:</translation>
    </message>
    <message>
        <source>&amp;Add</source>
        <translation>&amp;Hinzufügen</translation>
    </message>
    <message>
        <source>Remove Secret</source>
        <translation>Secret entfernen</translation>
    </message>
    <message>
        <source>Show the value of %1</source>
        <translation>Den Wert von %1 zeigen</translation>
    </message>
    <message>
        <source>&amp;Replace</source>
        <translation>&amp;Ersetzen</translation>
    </message>
    <message>
        <source>Replace the value of the secret of this name</source>
        <translation>Den Wert des Secrets mit diesem Namen ersetzen</translation>
    </message>
    <message>
        <source>Add a secret of this name and value</source>
        <translation>Ein Secret mit diesem Namen und Wert hinzufügen</translation>
    </message>
    <message>
        <source>Enter a name for the secret.</source>
        <translation>Geben Sie einen Namen für das Secret ein.</translation>
    </message>
    <message>
        <source>“%1” is not an environment variable name: use letters, digits and _, and do not start with a digit.</source>
        <translation>„%1“ ist kein Name einer Umgebungsvariable: Verwenden Sie Buchstaben, Ziffern und _, und beginnen Sie nicht mit einer Ziffer.</translation>
    </message>
    <message>
        <source>Enter a value for %1. To delete a secret, select it and click Remove.</source>
        <translation>Geben Sie einen Wert für %1 ein. Um ein Secret zu löschen, wählen Sie es aus und klicken Sie auf Entfernen.</translation>
    </message>
    <message>
        <source>Remove the secret %1? Tools that read it will no longer get it.</source>
        <translation>Das Secret %1 entfernen? Tools, die es lesen, bekommen es dann nicht mehr.</translation>
    </message>
    <message>
        <source>%1 was saved, but a value shorter than 4 characters is not masked in views and exports.</source>
        <translation>%1 wurde gespeichert, aber ein Wert mit weniger als 4 Zeichen wird in Ansichten und Exporten nicht maskiert.</translation>
    </message>
</context>
<context>
    <name>ServeProjectDialog</name>
    <message>
        <source>Serve Project</source>
        <translation>Projekt bereitstellen</translation>
    </message>
    <message>
        <source>Serve the open project over HTTP: seed 003&apos;s programmatic API, the pending-calls API and the project&apos;s tools over MCP at /mcp. Served runs show here live, and you can answer their calls in Pending Calls.</source>
        <translation>Das offene Projekt über HTTP bereitstellen: die programmatische API von Seed 003, die API für wartende Aufrufe und die Tools des Projekts über MCP unter /mcp. Bereitgestellte Läufe erscheinen hier live, und Sie können ihre Aufrufe unter „Wartende Aufrufe“ beantworten.</translation>
    </message>
    <message>
        <source>&amp;Port:</source>
        <translation>&amp;Port:</translation>
    </message>
    <message>
        <source>127.0.0.1 (or ::1, localhost) is reachable from this machine only; any other address needs a token file.</source>
        <translation>127.0.0.1 (oder ::1, localhost) ist nur von diesem Rechner aus erreichbar; jede andere Adresse braucht eine Token-Datei.</translation>
    </message>
    <message>
        <source>&amp;Host:</source>
        <translation>&amp;Host:</translation>
    </message>
    <message>
        <source>none (loopback only)</source>
        <translation>keine (nur Loopback)</translation>
    </message>
    <message>
        <source>A file holding the token every request must send as &apos;Authorization: Bearer TOKEN&apos; (e.g. head -c 32 /dev/urandom | base64 &gt; FILE).</source>
        <translation>Eine Datei mit dem Token, das jede Anfrage als &apos;Authorization: Bearer TOKEN&apos; senden muss (z. B. head -c 32 /dev/urandom | base64 &gt; DATEI).</translation>
    </message>
    <message>
        <source>&amp;Browse…</source>
        <translation>&amp;Durchsuchen…</translation>
    </message>
    <message>
        <source>Token File</source>
        <translation>Token-Datei</translation>
    </message>
    <message>
        <source>&amp;Token file:</source>
        <translation>&amp;Token-Datei:</translation>
    </message>
    <message>
        <source>&amp;Serve</source>
        <translation>&amp;Bereitstellen</translation>
    </message>
    <message>
        <source>a token file</source>
        <translation>eine Token-Datei</translation>
    </message>
    <message>
        <source>Warning: %1.</source>
        <translation>Warnung: %1.</translation>
    </message>
</context>
<context>
    <name>SettingsDialog</name>
    <message>
        <source>Preferences</source>
        <translation>Einstellungen</translation>
    </message>
    <message>
        <source>Defaults for new tools and projects</source>
        <translation>Vorgaben für neue Tools und Projekte</translation>
    </message>
    <message>
        <source> ms</source>
        <translation> ms</translation>
    </message>
    <message>
        <source>no limit</source>
        <translation>keine Grenze</translation>
    </message>
    <message>
        <source>Max &amp;attempts:</source>
        <translation>Max. &amp;Versuche:</translation>
    </message>
    <message>
        <source>Initial &amp;backoff:</source>
        <translation>Erste &amp;Wartezeit:</translation>
    </message>
    <message>
        <source>Attempt &amp;timeout:</source>
        <translation>&amp;Zeitlimit pro Versuch:</translation>
    </message>
    <message>
        <source>Max &amp;calls per run:</source>
        <translation>Max. &amp;Aufrufe pro Lauf:</translation>
    </message>
    <message>
        <source>&amp;Run timeout:</source>
        <translation>Zeitlimit des &amp;Laufs:</translation>
    </message>
    <message>
        <source>Interpreters</source>
        <translation>Interpreter</translation>
    </message>
    <message>
        <source>Choose the interpreter</source>
        <translation>Den Interpreter wählen</translation>
    </message>
    <message>
        <source>Choose Interpreter</source>
        <translation>Interpreter wählen</translation>
    </message>
    <message>
        <source>&amp;Python:</source>
        <translation>&amp;Python:</translation>
    </message>
    <message>
        <source>python3 from PATH</source>
        <translation>python3 aus PATH</translation>
    </message>
    <message>
        <source>&amp;Node:</source>
        <translation>&amp;Node:</translation>
    </message>
    <message>
        <source>node from PATH</source>
        <translation>node aus PATH</translation>
    </message>
    <message>
        <source>Editor</source>
        <translation>Editor</translation>
    </message>
    <message>
        <source> pt</source>
        <translation> pt</translation>
    </message>
    <message>
        <source>&amp;Font:</source>
        <translation>&amp;Schrift:</translation>
    </message>
    <message>
        <source>Tab &amp;width:</source>
        <translation>&amp;Tabulatorbreite:</translation>
    </message>
    <message>
        <source>Appearance</source>
        <translation>Erscheinungsbild</translation>
    </message>
    <message>
        <source>Follow the system</source>
        <translation>Dem System folgen</translation>
    </message>
    <message>
        <source>Light</source>
        <translation>Hell</translation>
    </message>
    <message>
        <source>Dark</source>
        <translation>Dunkel</translation>
    </message>
    <message>
        <source>T&amp;heme:</source>
        <translation>&amp;Farbschema:</translation>
    </message>
    <message>
        <source>Takes effect the next time Tool Studio starts</source>
        <translation>Wirkt beim nächsten Start von Tool Studio</translation>
    </message>
    <message>
        <source>&amp;Language:</source>
        <translation>S&amp;prache:</translation>
    </message>
</context>
<context>
    <name>ShortcutsDialog</name>
    <message>
        <source>Window</source>
        <translation>Fenster</translation>
    </message>
    <message>
        <source>Keyboard Shortcuts</source>
        <translation>Tastenkürzel</translation>
    </message>
    <message>
        <source>Command</source>
        <translation>Befehl</translation>
    </message>
    <message>
        <source>Shortcut</source>
        <translation>Tastenkürzel</translation>
    </message>
    <message>
        <source>Menu</source>
        <translation>Menü</translation>
    </message>
</context>
<context>
    <name>StepInspector</name>
    <message>
        <source>Select a step in the Trace to see its arguments, result and attempts.</source>
        <translation>Wählen Sie einen Schritt im Ablauf, um Argumente, Ergebnis und Versuche zu sehen.</translation>
    </message>
    <message>
        <source>&amp;Copy as JSON</source>
        <translation>Als JSON &amp;kopieren</translation>
    </message>
    <message>
        <source>Copy the step with its attempts as JSON</source>
        <translation>Den Schritt mit seinen Versuchen als JSON kopieren</translation>
    </message>
    <message>
        <source>Show &amp;All</source>
        <translation>&amp;Alles zeigen</translation>
    </message>
    <message>
        <source>Show the whole value of the selected string</source>
        <translation>Den ganzen Wert der ausgewählten Zeichenkette zeigen</translation>
    </message>
    <message>
        <source>Tree</source>
        <translation>Baum</translation>
    </message>
    <message>
        <source>JSON</source>
        <translation>JSON</translation>
    </message>
    <message>
        <source>Attempt</source>
        <translation>Versuch</translation>
    </message>
    <message>
        <source>Outcome</source>
        <translation>Ausgang</translation>
    </message>
    <message>
        <source>Started</source>
        <translation>Gestartet</translation>
    </message>
    <message>
        <source>Duration</source>
        <translation>Dauer</translation>
    </message>
    <message>
        <source>Error</source>
        <translation>Fehler</translation>
    </message>
    <message>
        <source>Select an attempt to see its error and captured output.</source>
        <translation>Wählen Sie einen Versuch, um seinen Fehler und die erfasste Ausgabe zu sehen.</translation>
    </message>
    <message>
        <source>%1 truncated (full size: %2 bytes)</source>
        <translation>%1 abgeschnitten (volle Größe: %2 Bytes)</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>unbekannt</translation>
    </message>
    <message>
        <source>retryable</source>
        <translation>wiederholbar</translation>
    </message>
    <message>
        <source>not retryable</source>
        <translation>nicht wiederholbar</translation>
    </message>
    <message>
        <source>1 attempt</source>
        <translation>1 Versuch</translation>
    </message>
    <message>
        <source>%1 attempts</source>
        <translation>%1 Versuche</translation>
    </message>
    <message>
        <source>&lt;b&gt;#%1 %2&lt;/b&gt; — %3 — attempts %4&lt;br&gt;call id &lt;tt&gt;%5&lt;/tt&gt;, idempotency key &lt;tt&gt;%6&lt;/tt&gt;</source>
        <translation>&lt;b&gt;#%1 %2&lt;/b&gt; — %3 — Versuche %4&lt;br&gt;Aufruf-ID &lt;tt&gt;%5&lt;/tt&gt;, Idempotenzschlüssel &lt;tt&gt;%6&lt;/tt&gt;</translation>
    </message>
    <message>
        <source>Divergence: %1</source>
        <translation>Abweichung: %1</translation>
    </message>
    <message>
        <source>Memoized: answered at once from the recorded run, where it started %1 and took %2</source>
        <translation>Gemerkt: sofort aus dem aufgezeichneten Lauf beantwortet, in dem er um %1 begann und %2 dauerte</translation>
    </message>
    <message>
        <source>The step&apos;s JSON is %1 bytes: browse it in the Tree tab, or use Copy as JSON.</source>
        <translation>Das JSON des Schritts hat %1 Bytes: durchsuchen Sie es im Reiter „Baum“ oder nutzen Sie „Als JSON kopieren“.</translation>
    </message>
    <message>
        <source>Step failed:</source>
        <translation>Schritt fehlgeschlagen:</translation>
    </message>
    <message>
        <source>Attempt %1</source>
        <translation>Versuch %1</translation>
    </message>
    <message>
        <source>Captured output:</source>
        <translation>Erfasste Ausgabe:</translation>
    </message>
    <message>
        <source>(none)</source>
        <translation>(keine)</translation>
    </message>
    <message>
        <source>Value of %1</source>
        <translation>Wert von %1</translation>
    </message>
    <message>
        <source>Attempt %1: handler output clipped (the notice at its end says how many bytes were dropped)</source>
        <translation>Versuch %1: Ausgabe des Handlers gekürzt (der Hinweis an ihrem Ende sagt, wie viele Bytes wegfielen)</translation>
    </message>
    <message>
        <source>Conversation</source>
        <translation>Unterhaltung</translation>
    </message>
    <message>
        <source>

Tokens: %1 in, %2 out; stop reason: %3</source>
        <translation>

Tokens: %1 ein, %2 aus; Stoppgrund: %3</translation>
    </message>
    <message>
        <source>none</source>
        <translation>keiner</translation>
    </message>
    <message>
        <source>No reply: %1</source>
        <translation>Keine Antwort: %1</translation>
    </message>
    <message>
        <source>Content</source>
        <translation>Inhalt</translation>
    </message>
    <message>
        <source>Protocol</source>
        <translation>Protokoll</translation>
    </message>
    <message>
        <source>Held for a person %1 before it went on (not part of its duration)</source>
        <translation>Für eine Person %1 angehalten, bevor es weiterging (nicht Teil seiner Dauer)</translation>
    </message>
    <message>
        <source>ran %1, waited for a person %2</source>
        <translation>lief %1, wartete auf eine Person %2</translation>
    </message>
</context>
<context>
    <name>StepModeActions</name>
    <message>
        <source>&amp;Continue Held Call</source>
        <translation>Gehaltenen Aufruf &amp;fortsetzen</translation>
    </message>
    <message>
        <source>Step mode: run the held call&apos;s handler (F7)</source>
        <translation>Schrittmodus: den Handler des gehaltenen Aufrufs ausführen (F7)</translation>
    </message>
    <message>
        <source>Answer &amp;Instead…</source>
        <translation>&amp;Stattdessen antworten…</translation>
    </message>
    <message>
        <source>Step mode: answer the held call yourself in the Pending Calls dock; its handler does not run (Shift+F7)</source>
        <translation>Schrittmodus: den gehaltenen Aufruf selbst im Dock „Wartende Aufrufe“ beantworten; sein Handler läuft nicht (Umschalt+F7)</translation>
    </message>
    <message>
        <source>&amp;Fail Held Call…</source>
        <translation>Gehaltenen Aufruf scheitern &amp;lassen…</translation>
    </message>
    <message>
        <source>Step mode: fail the held call with an error code and message in the Pending Calls dock; its handler does not run (Ctrl+F7)</source>
        <translation>Schrittmodus: den gehaltenen Aufruf im Dock „Wartende Aufrufe“ mit Fehlercode und Meldung scheitern lassen; sein Handler läuft nicht (Strg+F7)</translation>
    </message>
    <message>
        <source>Continue to &amp;End</source>
        <translation>Bis zum &amp;Ende fortsetzen</translation>
    </message>
    <message>
        <source>Leave step mode: every held call and every later one runs (F8)</source>
        <translation>Schrittmodus verlassen: jeder gehaltene und jeder spätere Aufruf läuft (F8)</translation>
    </message>
    <message>
        <source>Step &amp;Mode</source>
        <translation>&amp;Schrittmodus</translation>
    </message>
    <message>
        <source>Step mode (F10): hold every tool call before it runs; then Continue (F7), Answer Instead (Shift+F7), Fail Call (Ctrl+F7) or Continue to End (F8)</source>
        <translation>Schrittmodus (F10): jeden Tool-Aufruf vor der Ausführung anhalten; dann Fortsetzen (F7), Stattdessen antworten (Umschalt+F7), Aufruf scheitern lassen (Strg+F7) oder Bis zum Ende fortsetzen (F8)</translation>
    </message>
</context>
<context>
    <name>TimelineWidget</name>
    <message>
        <source>Steps appear here as the script calls tools.</source>
        <translation>Schritte erscheinen hier, sobald das Skript Tools aufruft.</translation>
    </message>
    <message>
        <source>#%1 %2 — %3</source>
        <translation>#%1 %2 — %3</translation>
    </message>
    <message>
        <source>queued %1</source>
        <translation>eingereiht %1</translation>
    </message>
    <message>
        <source>attempt %1: %2 – %3</source>
        <translation>Versuch %1: %2 – %3</translation>
    </message>
    <message>
        <source>now</source>
        <translation>jetzt</translation>
    </message>
    <message>
        <source>ended %1, %2 ms in all</source>
        <translation>beendet %1, insgesamt %2 ms</translation>
    </message>
    <message>
        <source>Reading the run&apos;s steps…</source>
        <translation>Die Schritte des Laufs werden gelesen…</translation>
    </message>
    <message>
        <source>progress: %1</source>
        <translation>Fortschritt: %1</translation>
    </message>
    <message>
        <source>held for a person: %1 – %2 (%3)</source>
        <translation>für eine Person angehalten: %1 – %2 (%3)</translation>
    </message>
    <message>
        <source>(ran %1, waited for a person %2)</source>
        <translation>(lief %1, wartete auf eine Person %2)</translation>
    </message>
</context>
<context>
    <name>Tool</name>
    <message>
        <source>1 to 128 letters, digits, &apos;_&apos;, &apos;-&apos; or &apos;.&apos;, starting with a letter, digit or &apos;_&apos;</source>
        <translation>1 bis 128 Buchstaben, Ziffern, &apos;_&apos;, &apos;-&apos; oder &apos;.&apos;, beginnend mit einem Buchstaben, einer Ziffer oder &apos;_&apos;</translation>
    </message>
</context>
<context>
    <name>ToolChangeQuestionView</name>
    <message>
        <source>&amp;Accept</source>
        <translation>&amp;Annehmen</translation>
    </message>
    <message>
        <source>Accept the tool&apos;s definition as shown (the project&apos;s record of accepted tools keeps it) and send the call</source>
        <translation>Die Definition des Werkzeugs wie gezeigt annehmen (die Liste angenommener Werkzeuge des Projekts behält sie) und den Aufruf senden</translation>
    </message>
    <message>
        <source>&amp;Reject</source>
        <translation>Ab&amp;lehnen</translation>
    </message>
    <message>
        <source>Fail the call; the accepted definition stays and later calls ask again</source>
        <translation>Den Aufruf scheitern lassen; die angenommene Definition bleibt und spätere Aufrufe fragen erneut</translation>
    </message>
</context>
<context>
    <name>ToolFilesReloader</name>
    <message>
        <source>%1 changed; the tools reload when this run ends</source>
        <translation>%1 geändert; die Tools werden neu geladen, wenn dieser Lauf endet</translation>
    </message>
    <message>
        <source>The tools were reloaded (%1 changed during the run)</source>
        <translation>Die Tools wurden neu geladen (%1 wurde während des Laufs geändert)</translation>
    </message>
</context>
<context>
    <name>ToolGeneration</name>
    <message>
        <source>The model&apos;s reply is empty: there is no code in it.</source>
        <translation>Die Antwort des Modells ist leer: Sie enthält keinen Code.</translation>
    </message>
    <message>
        <source>The model stopped at its token limit before the file was complete (its code block never closes). Raise max_tokens in the model&apos;s params, or ask for a smaller tool.</source>
        <translation>Das Modell hat an seinem Token-Limit aufgehört, bevor die Datei vollständig war (sein Codeblock wird nie geschlossen). Erhöhen Sie max_tokens in den params des Modells, oder fordern Sie ein kleineres Tool an.</translation>
    </message>
    <message>
        <source>The model&apos;s reply has code only in other languages (%1), no Python. It starts: %2</source>
        <translation>Die Antwort des Modells enthält nur Code in anderen Sprachen (%1), kein Python. Sie beginnt so: %2</translation>
    </message>
    <message>
        <source>The model stopped at its token limit before the file was complete. Raise max_tokens in the model&apos;s params, or ask for a smaller tool.</source>
        <translation>Das Modell hat an seinem Token-Limit aufgehört, bevor die Datei vollständig war. Erhöhen Sie max_tokens in den params des Modells, oder fordern Sie ein kleineres Tool an.</translation>
    </message>
    <message>
        <source>The model&apos;s reply has no Python file with a class Tools in it. It starts: %1</source>
        <translation>Die Antwort des Modells enthält keine Python-Datei mit einer Klasse Tools. Sie beginnt so: %1</translation>
    </message>
    <message>
        <source>The model&apos;s code holds a NUL character, which no Python file may hold; it was not taken.</source>
        <translation>Der Code des Modells enthält ein NUL-Zeichen, das keine Python-Datei enthalten darf; er wurde nicht übernommen.</translation>
    </message>
    <message>
        <source>The model&apos;s code is %1 bytes, more than the %2 bytes a generated tool file may have; it was not taken.</source>
        <translation>Der Code des Modells hat %1 Bytes, mehr als die %2 Bytes, die eine generierte Tool-Datei haben darf; er wurde nicht übernommen.</translation>
    </message>
</context>
<context>
    <name>ToolGenerator</name>
    <message>
        <source>The model answered with tool calls instead of a file; generate again.</source>
        <translation>Das Modell hat mit Tool-Aufrufen statt mit einer Datei geantwortet; generieren Sie erneut.</translation>
    </message>
</context>
<context>
    <name>ToolPanel</name>
    <message>
        <source>&amp;Call Tool</source>
        <translation>Tool &amp;aufrufen</translation>
    </message>
    <message>
        <source>Call the tool with these arguments, outside any script (Ctrl+Enter)</source>
        <translation>Das Tool mit diesen Argumenten aufrufen, außerhalb jedes Skripts (Strg+Eingabe)</translation>
    </message>
    <message>
        <source>The result of the call appears here.</source>
        <translation>Das Ergebnis des Aufrufs erscheint hier.</translation>
    </message>
    <message>
        <source>Try It</source>
        <translation>Ausprobieren</translation>
    </message>
    <message>
        <source>Schema</source>
        <translation>Schema</translation>
    </message>
    <message>
        <source>Handler</source>
        <translation>Handler</translation>
    </message>
    <message>
        <source>Valves</source>
        <translation>Valves</translation>
    </message>
    <message>
        <source>Select a tool in the Project dock.</source>
        <translation>Wählen Sie ein Tool im Projekt-Dock.</translation>
    </message>
    <message>
        <source>Fix the arguments first: %1</source>
        <translation>Korrigieren Sie zuerst die Argumente: %1</translation>
    </message>
    <message>
        <source>Cannot call %1: %2</source>
        <translation>%1 kann nicht aufgerufen werden: %2</translation>
    </message>
    <message>
        <source>Calling %1…</source>
        <translation>%1 wird aufgerufen…</translation>
    </message>
    <message>
        <source>Result (attempts %1, %2 ms):</source>
        <translation>Ergebnis (Versuche %1, %2 ms):</translation>
    </message>
    <message>
        <source>Error (attempts %1, %2 ms):</source>
        <translation>Fehler (Versuche %1, %2 ms):</translation>
    </message>
    <message>
        <source>Waiting for a person to answer (attempt %1)…</source>
        <translation>Wartet auf die Antwort einer Person (Versuch %1)…</translation>
    </message>
    <message>
        <source>Retrying (attempts %1)…</source>
        <translation>Neuer Versuch (Versuche %1)…</translation>
    </message>
    <message>
        <source>The answer was refused: %1</source>
        <translation>Die Antwort wurde abgelehnt: %1</translation>
    </message>
    <message>
        <source>The project is not trusted, so none of its tools run: choose Trust Project in the bar above the editor.</source>
        <translation>Dem Projekt wird nicht vertraut, daher läuft keines seiner Tools: Wählen Sie „Projekt vertrauen“ in der Leiste über dem Editor.</translation>
    </message>
    <message>
        <source>Hints (declared by the tool, not enforced): %1</source>
        <translation>Hinweise (vom Tool angegeben, nicht erzwungen): %1</translation>
    </message>
    <message>
        <source>Progress: %1</source>
        <translation>Fortschritt: %1</translation>
    </message>
</context>
<context>
    <name>ToolProblemsView</name>
    <message>
        <source>Install Requirements…</source>
        <translation>Abhängigkeiten installieren…</translation>
    </message>
    <message>
        <source>Create the project&apos;s virtual environment (.toolstudio/venv) and pip-install the file&apos;s requirements into it; the tool worker then runs in it</source>
        <translation>Die virtuelle Umgebung des Projekts (.toolstudio/venv) anlegen und die Abhängigkeiten der Datei mit pip hineininstallieren; der Tool-Worker läuft danach darin</translation>
    </message>
    <message>
        <source>&amp;Load problems (%1)</source>
        <translation>&amp;Ladeprobleme (%1)</translation>
    </message>
    <message>
        <source>Install Requirements</source>
        <translation>Abhängigkeiten installieren</translation>
    </message>
    <message>
        <source>%1 needs the module &apos;%2&apos;. Create the project&apos;s virtual environment (.toolstudio/venv) and run pip install for:

%3

pip downloads from the package index, or installs the local paths given.</source>
        <translation>%1 braucht das Modul „%2“. Die virtuelle Umgebung des Projekts (.toolstudio/venv) anlegen und pip install ausführen für:

%3

pip lädt vom Paketindex herunter oder installiert die angegebenen lokalen Pfade.</translation>
    </message>
</context>
<context>
    <name>ToolsMenu</name>
    <message>
        <source>&amp;Export Tools…</source>
        <translation>Tools &amp;exportieren…</translation>
    </message>
    <message>
        <source>The tool definitions as the Anthropic or OpenAI API takes them: preview, copy or save (Ctrl+Shift+E)</source>
        <translation>Die Tool-Definitionen so, wie die Anthropic- oder OpenAI-API sie annimmt: ansehen, kopieren oder speichern (Strg+Umschalt+E)</translation>
    </message>
    <message>
        <source>&amp;Import Tools…</source>
        <translation>Tools &amp;importieren…</translation>
    </message>
    <message>
        <source>Add tools from Anthropic, OpenAI or MCP tools/list JSON, or a Python tool file (Ctrl+Shift+I)</source>
        <translation>Tools aus Anthropic-, OpenAI- oder MCP-tools/list-JSON oder aus einer Python-Tool-Datei hinzufügen (Strg+Umschalt+I)</translation>
    </message>
    <message>
        <source>Export &amp;Bundle…</source>
        <translation>&amp;Bundle exportieren…</translation>
    </message>
    <message>
        <source>Write the project&apos;s tools, tool files and valves to a .zip (never secrets)</source>
        <translation>Die Tools, Tool-Dateien und Valves des Projekts in eine .zip schreiben (nie Secrets)</translation>
    </message>
    <message>
        <source>Import B&amp;undle…</source>
        <translation>B&amp;undle importieren…</translation>
    </message>
    <message>
        <source>Add the tools, tool files and valves of a bundle .zip to the project</source>
        <translation>Die Tools, Tool-Dateien und Valves einer Bundle-.zip zum Projekt hinzufügen</translation>
    </message>
    <message>
        <source>&amp;Secrets…</source>
        <translation>&amp;Secrets…</translation>
    </message>
    <message>
        <source>API keys and other secrets of this project, given to Python tools and command handlers as environment variables (Ctrl+Shift+K)</source>
        <translation>API-Schlüssel und andere Secrets dieses Projekts, die Python-Tools und command-Handler als Umgebungsvariablen bekommen (Strg+Umschalt+K)</translation>
    </message>
    <message>
        <source>Import Tools</source>
        <translation>Tools importieren</translation>
    </message>
    <message>
        <source>Nothing was imported from %1; the project is unchanged:</source>
        <translation>Aus %1 wurde nichts importiert; das Projekt ist unverändert:</translation>
    </message>
    <message>
        <source>Export Bundle</source>
        <translation>Bundle exportieren</translation>
    </message>
    <message>
        <source>The bundle was not written:</source>
        <translation>Das Bundle wurde nicht geschrieben:</translation>
    </message>
    <message numerus="yes">
        <source>Wrote %n item(s) to %1 (never secrets):</source>
        <translation>
            <numerusform>%n Eintrag in %1 geschrieben (nie Secrets):</numerusform>
            <numerusform>%n Einträge in %1 geschrieben (nie Secrets):</numerusform>
        </translation>
    </message>
    <message>
        <source>Import Bundle</source>
        <translation>Bundle importieren</translation>
    </message>
    <message numerus="yes">
        <source>Nothing was imported from %1; the project is unchanged (%n problem(s)):</source>
        <translation>
            <numerusform>Aus %1 wurde nichts importiert; das Projekt ist unverändert (%n Problem):</numerusform>
            <numerusform>Aus %1 wurde nichts importiert; das Projekt ist unverändert (%n Probleme):</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Imported %n tool(s) from %1:</source>
        <translation>
            <numerusform>%n Tool aus %1 importiert:</numerusform>
            <numerusform>%n Tools aus %1 importiert:</numerusform>
        </translation>
    </message>
    <message>
        <source>Tool definitions (*.json *.py);;JSON: Anthropic, OpenAI, MCP tools/list (*.json);;Python tool files (*.py);;All files (*)</source>
        <translation>Tool-Definitionen (*.json *.py);;JSON: Anthropic, OpenAI, MCP tools/list (*.json);;Python-Tool-Dateien (*.py);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>Import the tools of %1 as which kind of tool?</source>
        <translation>Als welche Art von Tool sollen die Tools aus %1 importiert werden?</translation>
    </message>
    <message>
        <source>Manual: a person answers each call in the studio.
Mock: each call gets a canned result that you edit in the Tool dock.</source>
        <translation>Manuell: Eine Person beantwortet jeden Aufruf im Studio.
Mock: Jeder Aufruf bekommt ein vorgefertigtes Ergebnis, das Sie im Tool-Dock bearbeiten.</translation>
    </message>
    <message>
        <source>As &amp;Manual Tools</source>
        <translation>Als &amp;manuelle Tools</translation>
    </message>
    <message>
        <source>As M&amp;ock Tools</source>
        <translation>Als M&amp;ock-Tools</translation>
    </message>
    <message>
        <source>Tool bundles (*.zip)</source>
        <translation>Tool-Bundles (*.zip)</translation>
    </message>
    <message>
        <source>Delete Tools</source>
        <translation>Tools löschen</translation>
    </message>
    <message numerus="yes">
        <source>Delete %n tool(s): %1?
Edit ▸ Undo brings back the ones deleted from toolstudio.json.</source>
        <translation>
            <numerusform>%n Tool löschen: %1?
Bearbeiten ▸ Rückgängig holt die aus toolstudio.json gelöschten zurück.</numerusform>
            <numerusform>%n Tools löschen: %1?
Bearbeiten ▸ Rückgängig holt die aus toolstudio.json gelöschten zurück.</numerusform>
        </translation>
    </message>
    <message>
        <source>%1: defined by a method in %2; delete the method there, or switch the tool off</source>
        <translation>%1: durch eine Methode in %2 definiert; löschen Sie die Methode dort oder schalten Sie das Tool ab</translation>
    </message>
    <message>
        <source>Delete %1</source>
        <translation>%1 löschen</translation>
    </message>
    <message>
        <source>No tool was deleted.</source>
        <translation>Es wurde kein Tool gelöscht.</translation>
    </message>
    <message numerus="yes">
        <source>Deleted %n tool(s): %1 (Edit ▸ Undo brings them back)</source>
        <translation>
            <numerusform>%n Tool gelöscht: %1 (Bearbeiten ▸ Rückgängig holt es zurück)</numerusform>
            <numerusform>%n Tools gelöscht: %1 (Bearbeiten ▸ Rückgängig holt sie zurück)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Deleted %1 of %n tool(s); not deleted:</source>
        <translation>
            <numerusform>%1 von %n Tool gelöscht; nicht gelöscht:</numerusform>
            <numerusform>%1 von %n Tools gelöscht; nicht gelöscht:</numerusform>
        </translation>
    </message>
    <message>
        <source>Import %1</source>
        <translation>%1 importieren</translation>
    </message>
    <message>
        <source>&apos;%1&apos; as &apos;%2&apos; (%3)</source>
        <translation>&apos;%1&apos; als &apos;%2&apos; (%3)</translation>
    </message>
    <message numerus="yes">
        <source>%n tool(s) cannot be imported under their own name. Import them under the suggested name?</source>
        <translation>
            <numerusform>%n Tool kann nicht unter seinem eigenen Namen importiert werden. Unter dem vorgeschlagenen Namen importieren?</numerusform>
            <numerusform>%n Tools können nicht unter ihrem eigenen Namen importiert werden. Unter den vorgeschlagenen Namen importieren?</numerusform>
        </translation>
    </message>
    <message>
        <source>Use the &amp;Suggested Names</source>
        <translation>&amp;Vorgeschlagene Namen verwenden</translation>
    </message>
    <message>
        <source>Import &amp;Only the Others</source>
        <translation>&amp;Nur die anderen importieren</translation>
    </message>
    <message>
        <source>refused: %1</source>
        <translation>abgelehnt: %1</translation>
    </message>
    <message>
        <source>&apos;%1&apos; imported as &apos;%2&apos; (the suggested name you accepted)</source>
        <translation>&apos;%1&apos; als &apos;%2&apos; importiert (der vorgeschlagene Name, den Sie angenommen haben)</translation>
    </message>
    <message>
        <source>note: %1</source>
        <translation>Hinweis: %1</translation>
    </message>
    <message>
        <source>(a Python tool file, now in tools/)</source>
        <translation>(eine Python-Tool-Datei, jetzt in tools/)</translation>
    </message>
    <message>
        <source>as mock tools</source>
        <translation>als Mock-Tools</translation>
    </message>
    <message>
        <source>as manual tools</source>
        <translation>als manuelle Tools</translation>
    </message>
    <message numerus="yes">
        <source>Imported %n tool(s) from %1 %2:</source>
        <translation>
            <numerusform>%n Tool aus %1 %2 importiert:</numerusform>
            <numerusform>%n Tools aus %1 %2 importiert:</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Imported %1 of %n tool(s) from %2 %3; %4 refused:</source>
        <translation>
            <numerusform>%1 von %n Tool aus %2 %3 importiert; %4 abgelehnt:</numerusform>
            <numerusform>%1 von %n Tools aus %2 %3 importiert; %4 abgelehnt:</numerusform>
        </translation>
    </message>
    <message>
        <source>Import &amp;MCP Config…</source>
        <translation>&amp;MCP-Konfiguration importieren…</translation>
    </message>
    <message>
        <source>Add the MCP servers of a Claude Desktop, Cursor, Claude Code or VS Code config (claude_desktop_config.json, .mcp.json, .vscode/mcp.json)</source>
        <translation>Die MCP-Server einer Konfiguration von Claude Desktop, Cursor, Claude Code oder VS Code hinzufügen (claude_desktop_config.json, .mcp.json, .vscode/mcp.json)</translation>
    </message>
    <message>
        <source>Import MCP Config</source>
        <translation>MCP-Konfiguration importieren</translation>
    </message>
    <message numerus="yes">
        <source>The project has %n server(s) of the same name already: %1. Replace them with the imported ones?</source>
        <translation>
            <numerusform>Das Projekt hat bereits %n Server desselben Namens: %1. Durch den importierten ersetzen?</numerusform>
            <numerusform>Das Projekt hat bereits %n Server desselben Namens: %1. Durch die importierten ersetzen?</numerusform>
        </translation>
    </message>
    <message>
        <source>the secrets could not be saved: %1</source>
        <translation>die Geheimnisse konnten nicht gespeichert werden: %1</translation>
    </message>
    <message>
        <source>added %1</source>
        <translation>%1 hinzugefügt</translation>
    </message>
    <message>
        <source>replaced %1</source>
        <translation>%1 ersetzt</translation>
    </message>
    <message>
        <source>skipped %1</source>
        <translation>%1 übersprungen</translation>
    </message>
    <message>
        <source>saved as the project&apos;s secrets (Tools ▸ Secrets; Undo does not remove them): %1</source>
        <translation>als Geheimnisse des Projekts gespeichert (Tools ▸ Geheimnisse; Rückgängig entfernt sie nicht): %1</translation>
    </message>
    <message numerus="yes">
        <source>Imported %n MCP server(s) from %1 (%2):</source>
        <translation>
            <numerusform>%n MCP-Server aus %1 importiert (%2):</numerusform>
            <numerusform>%n MCP-Server aus %1 importiert (%2):</numerusform>
        </translation>
    </message>
    <message>
        <source>MCP configs (*.json);;All files (*)</source>
        <translation>MCP-Konfigurationen (*.json);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>Open a project before importing tools.</source>
        <translation>Öffnen Sie ein Projekt, bevor Sie Tools importieren.</translation>
    </message>
</context>
<context>
    <name>TraceModel</name>
    <message>
        <source>waiting for an answer</source>
        <translation>wartet auf eine Antwort</translation>
    </message>
    <message>
        <source>Call id: %1</source>
        <translation>Aufruf-ID: %1</translation>
    </message>
    <message>
        <source>attempt %1</source>
        <translation>Versuch %1</translation>
    </message>
    <message>
        <source>#</source>
        <translation>#</translation>
    </message>
    <message>
        <source>Tool</source>
        <translation>Tool</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Status</translation>
    </message>
    <message>
        <source>Attempts</source>
        <translation>Versuche</translation>
    </message>
    <message>
        <source>Duration</source>
        <translation>Dauer</translation>
    </message>
    <message>
        <source>Result</source>
        <translation>Ergebnis</translation>
    </message>
    <message>
        <source>queued</source>
        <translation>eingereiht</translation>
    </message>
    <message>
        <source>running</source>
        <translation>läuft</translation>
    </message>
    <message>
        <source>retrying</source>
        <translation>wiederholt</translation>
    </message>
    <message>
        <source>waiting</source>
        <translation>wartet</translation>
    </message>
    <message>
        <source>succeeded</source>
        <translation>erfolgreich</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>fehlgeschlagen</translation>
    </message>
    <message>
        <source>memoized</source>
        <translation>gemerkt</translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>abgebrochen</translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation>%1 ms</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 s</translation>
    </message>
    <message>
        <source>%1 min %2 s</source>
        <translation>%1 min %2 s</translation>
    </message>
    <message>
        <source>Replay diverged here: %1</source>
        <translation>Die Wiederholung ist hier abgewichen: %1</translation>
    </message>
    <message>
        <source>%1
(the inspector shows all of it)</source>
        <translation>%1
(der Inspektor zeigt alles)</translation>
    </message>
    <message numerus="yes">
        <source>%n byte(s) of handler output (in the Step dock)</source>
        <translation>
            <numerusform>%n Byte Handler-Ausgabe (im Schritt-Dock)</numerusform>
            <numerusform>%n Bytes Handler-Ausgabe (im Schritt-Dock)</numerusform>
        </translation>
    </message>
    <message>
        <source>step mode: continued, the handler runs</source>
        <translation>Schrittmodus: fortgesetzt, der Handler läuft</translation>
    </message>
    <message>
        <source>step mode: answered by hand instead, the handler did not run</source>
        <translation>Schrittmodus: stattdessen von Hand beantwortet, der Handler lief nicht</translation>
    </message>
    <message>
        <source>step mode: failed by hand, the handler did not run</source>
        <translation>Schrittmodus: von Hand scheitern gelassen, der Handler lief nicht</translation>
    </message>
    <message>
        <source>step mode: timed out by hand, the handler did not run</source>
        <translation>Schrittmodus: von Hand abgelaufen, der Handler lief nicht</translation>
    </message>
    <message>
        <source>loading…</source>
        <translation>wird geladen…</translation>
    </message>
    <message>
        <source>#%1</source>
        <translation>#%1</translation>
    </message>
    <message>
        <source>run</source>
        <translation>Lauf</translation>
    </message>
    <message>
        <source>An event of step #%1</source>
        <translation>Ein Ereignis von Schritt #%1</translation>
    </message>
    <message>
        <source>An event of the run</source>
        <translation>Ein Ereignis des Laufs</translation>
    </message>
    <message>
        <source>held before it runs (step mode or tool approval)</source>
        <translation>vor der Ausführung angehalten (Schrittmodus oder Tool-Freigabe)</translation>
    </message>
    <message>
        <source>completed</source>
        <translation>abgeschlossen</translation>
    </message>
    <message>
        <source>timed_out</source>
        <comment>run status</comment>
        <translation>Zeit überschritten</translation>
    </message>
    <message>
        <source>suspended</source>
        <translation>ausgesetzt</translation>
    </message>
    <message>
        <source>MCP server &apos;%1&apos; asks a person (%2): %3</source>
        <translation>MCP-Server &apos;%1&apos; fragt eine Person (%2): %3</translation>
    </message>
    <message>
        <source>a person answered: %1</source>
        <translation>eine Person hat geantwortet: %1</translation>
    </message>
    <message>
        <source>the MCP server withdrew its question (notifications/cancelled) before a person answered</source>
        <translation>der MCP-Server hat seine Frage zurückgezogen (notifications/cancelled), bevor eine Person geantwortet hat</translation>
    </message>
    <message>
        <source>held %1</source>
        <translation>angehalten %1</translation>
    </message>
    <message>
        <source>Progress: %1</source>
        <translation>Fortschritt: %1</translation>
    </message>
    <message>
        <source>ran %1, waited for a person %2</source>
        <translation>lief %1, wartete auf eine Person %2</translation>
    </message>
</context>
<context>
    <name>TracePanel</name>
    <message>
        <source>Filter steps (tool, call id, result)</source>
        <translation>Schritte filtern (Tool, Aufruf-ID, Ergebnis)</translation>
    </message>
    <message>
        <source>All tools</source>
        <translation>Alle Tools</translation>
    </message>
    <message>
        <source>Failed</source>
        <translation>Fehlgeschlagen</translation>
    </message>
    <message>
        <source>Pending</source>
        <translation>Wartend</translation>
    </message>
    <message>
        <source>Show steps waiting for a person only</source>
        <translation>Nur Schritte zeigen, die auf eine Person warten</translation>
    </message>
    <message>
        <source>Next pending</source>
        <translation>Nächster wartender</translation>
    </message>
    <message>
        <source>Next failed</source>
        <translation>Nächster fehlgeschlagener</translation>
    </message>
    <message>
        <source>Show the steps that ended failed only (Ctrl+E: the next one)</source>
        <translation>Nur Schritte zeigen, die fehlgeschlagen endeten (Strg+E: der nächste)</translation>
    </message>
    <message>
        <source>Had failures</source>
        <translation>Mit Fehlversuchen</translation>
    </message>
    <message>
        <source>Show the steps with any failed attempt, also those that succeeded after a retry</source>
        <translation>Schritte mit einem fehlgeschlagenen Versuch zeigen, auch solche, die nach einer Wiederholung gelangen</translation>
    </message>
    <message>
        <source>Follow</source>
        <translation>Folgen</translation>
    </message>
    <message>
        <source>Scroll to each new step while the trace is at its end; scrolling up turns it off</source>
        <translation>Zu jedem neuen Schritt scrollen, solange der Ablauf am Ende steht; Hochscrollen schaltet es aus</translation>
    </message>
    <message>
        <source>Next &amp;Pending Step</source>
        <translation>Nächster &amp;wartender Schritt</translation>
    </message>
    <message>
        <source>Next &amp;Failed Step</source>
        <translation>Nächster &amp;fehlgeschlagener Schritt</translation>
    </message>
    <message>
        <source>Select the next step that waits for a person (Ctrl+J)</source>
        <translation>Den nächsten Schritt auswählen, der auf eine Person wartet (Strg+J)</translation>
    </message>
    <message>
        <source>Select the next step that ended failed (Ctrl+E)</source>
        <translation>Den nächsten fehlgeschlagenen Schritt auswählen (Strg+E)</translation>
    </message>
    <message>
        <source>No failed step</source>
        <translation>Kein fehlgeschlagener Schritt</translation>
    </message>
    <message>
        <source>No pending step</source>
        <translation>Kein wartender Schritt</translation>
    </message>
</context>
<context>
    <name>TrustBar</name>
    <message numerus="yes">
        <source>%1 and %n more</source>
        <translation>
            <numerusform>%1 und %n weiteres</numerusform>
            <numerusform>%1 und %n weitere</numerusform>
        </translation>
    </message>
    <message>
        <source>Trust Project</source>
        <translation>Projekt vertrauen</translation>
    </message>
    <message>
        <source>Trust this project: its Python tool files are loaded and its command tools and scripts may run. Recorded for this folder until what would run changes.</source>
        <translation>Diesem Projekt vertrauen: Seine Python-Tooldateien werden geladen, und seine Befehls-Tools und Skripte dürfen laufen. Gespeichert für diesen Ordner, bis sich ändert, was laufen würde.</translation>
    </message>
    <message>
        <source>Stay Restricted</source>
        <translation>Eingeschränkt bleiben</translation>
    </message>
    <message>
        <source>Keep browsing without running anything; the bar comes back when the project is opened again.</source>
        <translation>Weiter ansehen, ohne etwas auszuführen; die Leiste erscheint wieder, wenn das Projekt erneut geöffnet wird.</translation>
    </message>
    <message>
        <source>&lt;b&gt;Restricted mode:&lt;/b&gt; what this project would run changed since you trusted it: %1. Nothing of it runs until you trust it again.</source>
        <translation>&lt;b&gt;Eingeschränkter Modus:&lt;/b&gt; Was dieses Projekt ausführen würde, hat sich geändert, seit Sie ihm vertraut haben: %1. Nichts davon läuft, bis Sie ihm erneut vertrauen.</translation>
    </message>
    <message>
        <source>&lt;b&gt;Restricted mode:&lt;/b&gt; this project is not trusted, so nothing of it runs (its scripts would run in the sandbox).</source>
        <translation>&lt;b&gt;Eingeschränkter Modus:&lt;/b&gt; Diesem Projekt wird nicht vertraut, daher läuft nichts davon (seine Skripte würden in der Sandbox laufen).</translation>
    </message>
    <message>
        <source>&lt;b&gt;Restricted mode:&lt;/b&gt; this project is not trusted, so nothing of it runs. Trusting it would run: %1.</source>
        <translation>&lt;b&gt;Eingeschränkter Modus:&lt;/b&gt; Diesem Projekt wird nicht vertraut, daher läuft nichts davon. Wenn Sie ihm vertrauen, würde laufen: %1.</translation>
    </message>
</context>
<context>
    <name>TryItAnswerDialog</name>
    <message>
        <source>Answer %1</source>
        <translation>%1 beantworten</translation>
    </message>
    <message>
        <source>%1 is answered by a person. Arguments: %2</source>
        <translation>%1 wird von einer Person beantwortet. Argumente: %2</translation>
    </message>
    <message>
        <source>&amp;Result (from the output schema):</source>
        <translation>&amp;Ergebnis (aus dem Ausgabeschema):</translation>
    </message>
    <message>
        <source>&amp;Result (JSON):</source>
        <translation>&amp;Ergebnis (JSON):</translation>
    </message>
    <message>
        <source>no answer given in Try it</source>
        <translation>beim Ausprobieren keine Antwort gegeben</translation>
    </message>
    <message>
        <source>Error &amp;message:</source>
        <translation>&amp;Fehlermeldung:</translation>
    </message>
    <message>
        <source>Send &amp;Result</source>
        <translation>&amp;Ergebnis senden</translation>
    </message>
    <message>
        <source>Send the result (Ctrl+Enter)</source>
        <translation>Das Ergebnis senden (Strg+Eingabe)</translation>
    </message>
    <message>
        <source>Send &amp;Error</source>
        <translation>&amp;Fehler senden</translation>
    </message>
</context>
<context>
    <name>Typings</name>
    <message>
        <source>%1: cannot write: %2</source>
        <translation>%1: kann nicht geschrieben werden: %2</translation>
    </message>
    <message>
        <source>%1: cannot create the folder</source>
        <translation>%1: der Ordner kann nicht angelegt werden</translation>
    </message>
</context>
<context>
    <name>ValvesForm</name>
    <message>
        <source>Valves (settings of the tool file)</source>
        <translation>Valves (Einstellungen der Tool-Datei)</translation>
    </message>
    <message>
        <source>User valves (settings per user)</source>
        <translation>User-Valves (Einstellungen pro Benutzer)</translation>
    </message>
    <message>
        <source>&amp;Save Valves</source>
        <translation>Valves &amp;speichern</translation>
    </message>
    <message>
        <source>Save &amp;User Valves</source>
        <translation>&amp;User-Valves speichern</translation>
    </message>
    <message>
        <source>Store these values in .toolstudio/valves.json; the next call uses them (Ctrl+Enter)</source>
        <translation>Diese Werte in .toolstudio/valves.json speichern; der nächste Aufruf verwendet sie (Strg+Eingabe)</translation>
    </message>
    <message>
        <source>%1 has no valves: only Python tools have settings of their own.</source>
        <translation>%1 hat keine Valves: nur Python-Tools haben eigene Einstellungen.</translation>
    </message>
    <message>
        <source>%1 of %2 cannot be shown: %3</source>
        <translation>%1 von %2 kann nicht angezeigt werden: %3</translation>
    </message>
    <message>
        <source>Settings of %1, stored in .toolstudio/valves.json.</source>
        <translation>Einstellungen von %1, gespeichert in .toolstudio/valves.json.</translation>
    </message>
    <message>
        <source>%1 declares no Valves or UserValves class.</source>
        <translation>%1 deklariert keine Klasse Valves oder UserValves.</translation>
    </message>
    <message>
        <source>Not saved: %1</source>
        <translation>Nicht gespeichert: %1</translation>
    </message>
    <message>
        <source>Saved %1 of %2; the next call uses them.</source>
        <translation>%1 von %2 gespeichert; der nächste Aufruf verwendet sie.</translation>
    </message>
</context>
<context>
    <name>WindowChat</name>
    <message>
        <source>Chat</source>
        <translation>Chat</translation>
    </message>
</context>
<context>
    <name>main</name>
    <message>
        <source>Project folder to open.</source>
        <translation>Zu öffnender Projektordner.</translation>
    </message>
    <message>
        <source>toolstudio: no display (DISPLAY and WAYLAND_DISPLAY are unset).
To run a script without a window: toolstudio run PROJECT [SCRIPT]</source>
        <translation>toolstudio: keine Anzeige (DISPLAY und WAYLAND_DISPLAY sind nicht gesetzt).
Ein Skript ohne Fenster ausführen: toolstudio run PROJEKT [SKRIPT]</translation>
    </message>
    <message>
        <source>Build and debug LLM agent tools and the scripts that call them.
Every command and its options: toolstudio help</source>
        <translation>Werkzeuge für LLM-Agenten und die Skripte, die sie aufrufen, bauen und debuggen.
Jeder Befehl mit seinen Optionen: toolstudio help</translation>
    </message>
    <message>
        <source>Extra CA certificates not loaded: %1</source>
        <translation>Zusätzliche CA-Zertifikate nicht geladen: %1</translation>
    </message>
</context>
<context>
    <name>mcpservernamed</name>
    <message>
        <source>toolstudio mcp %1: the project has no MCP server &quot;%2&quot; (it has: %3)</source>
        <translation>toolstudio mcp %1: das Projekt hat keinen MCP-Server &quot;%2&quot; (es hat: %3)</translation>
    </message>
    <message>
        <source>none</source>
        <translation>keiner</translation>
    </message>
</context>
</TS>
