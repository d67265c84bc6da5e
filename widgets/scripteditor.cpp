// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "scripteditor.h"

#include <QDir>
#include <QEvent>
#include <QFile>
#include <QFileInfo>
#include <QFontDatabase>
#include <QRegularExpression>
#include <QSaveFile>
#include <QToolTip>

namespace {

constexpr int TracebackIndicator = 8; // indicators 0–7 belong to lexers
constexpr int TracebackMarker = 1;

bool isDark(const QPalette &palette)
{
    return palette.color(QPalette::Base).lightness() < 128;
}

// Lexer colours are made for a light background; on a dark one, mirror their
// lightness so keywords stay readable.
QColor forBackground(const QColor &colour, bool dark)
{
    if (!dark || colour.lightness() >= 128)
        return colour;
    return QColor::fromHsl(colour.hslHue(), colour.hslSaturation(), 255 - colour.lightness());
}

QColor blend(const QColor &base, const QColor &tint, double amount)
{
    return QColor::fromRgbF(float(base.redF() + (tint.redF() - base.redF()) * amount),
                            float(base.greenF() + (tint.greenF() - base.greenF()) * amount),
                            float(base.blueF() + (tint.blueF() - base.blueF()) * amount));
}

} // namespace

ScriptEditor::ScriptEditor(QWidget *parent)
    : QsciScintilla(parent)
    , m_font(QFontDatabase::systemFont(QFontDatabase::FixedFont))
{
    setUtf8(true);
    setEolMode(QsciScintilla::EolUnix);
    setFont(m_font);

    setMarginType(0, QsciScintilla::NumberMargin);
    setMarginLineNumbers(0, true);
    setMarginsFont(m_font);
    setFolding(QsciScintilla::BoxedTreeFoldStyle, 2);
    setBraceMatching(QsciScintilla::SloppyBraceMatch);
    // Zoom belongs to the window (View ▸ Zoom In/Out): the editor's own Ctrl++ and
    // Ctrl+- would scale it alone, and claim the window's shortcuts.
    for (const QsciCommand::Command command : {QsciCommand::ZoomIn, QsciCommand::ZoomOut}) {
        if (QsciCommand *bound = standardCommands()->find(command)) {
            bound->setKey(0);
            bound->setAlternateKey(0);
        }
    }

    setIndentationsUseTabs(false);
    setTabWidth(4);
    setIndentationWidth(4);
    setAutoIndent(true);
    setIndentationGuides(true);
    setBackspaceUnindents(true);
    setCaretLineVisible(true);
    setWrapMode(QsciScintilla::WrapNone);
    // Horizontal scrolling follows the longest line instead of a fixed 2000 px.
    SendScintilla(SCI_SETSCROLLWIDTH, 1);
    SendScintilla(SCI_SETSCROLLWIDTHTRACKING, 1);

    // Margin 1: markers for the lines named in a traceback.
    setMarginType(1, QsciScintilla::SymbolMargin);
    setMarginWidth(1, 14);
    setMarginMarkerMask(1, 1 << TracebackMarker);
    markerDefine(QsciScintilla::RightTriangle, TracebackMarker);
    setMarkerBackgroundColor(QColor(0xd3, 0x2f, 0x2f), TracebackMarker);
    setMarkerForegroundColor(QColor(0xd3, 0x2f, 0x2f), TracebackMarker);
    indicatorDefine(QsciScintilla::SquiggleIndicator, TracebackIndicator);
    setIndicatorForegroundColor(QColor(0xd3, 0x2f, 0x2f), TracebackIndicator);
    setIndicatorHoverStyle(QsciScintilla::SquiggleIndicator, TracebackIndicator);
    SendScintilla(SCI_SETMOUSEDWELLTIME, 400);
    connect(this, &QsciScintillaBase::SCN_DWELLSTART, this, &ScriptEditor::showDwellTip);
    connect(this, &QsciScintillaBase::SCN_DWELLEND, this, [] { QToolTip::hideText(); });

    setAutoCompletionSource(QsciScintilla::AcsAll);
    setAutoCompletionThreshold(2);
    setAutoCompletionCaseSensitivity(true);
    setAutoCompletionReplaceWord(true);
    setCallTipsStyle(QsciScintilla::CallTipsContext);

    connect(this, &QsciScintilla::linesChanged, this, &ScriptEditor::updateMarginWidth);
    applyColours();
    updateMarginWidth();
}

ScriptEditor::~ScriptEditor()
{
    // The APIs' preparation thread reads the lexer: stop it while the lexer is whole.
    if (QsciLexer *lex = lexer())
        delete lex->apis();
}

QString ScriptEditor::languageForFile(const QString &path)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QLatin1String("py") || suffix == QLatin1String("pyw"))
        return QStringLiteral("Python");
    if (suffix == QLatin1String("sh") || suffix == QLatin1String("bash"))
        return QStringLiteral("Bash");
    if (suffix == QLatin1String("js") || suffix == QLatin1String("mjs") || suffix == QLatin1String("cjs"))
        return QStringLiteral("JavaScript");
    if (suffix == QLatin1String("json"))
        return QStringLiteral("JSON");
    return {};
}

bool ScriptEditor::loadFile(const QString &path, QString *error)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        if (error)
            *error = tr("Cannot open %1: %2").arg(QDir::toNativeSeparators(path), file.errorString());
        return false;
    }
    const QByteArray bytes = file.readAll();
    if (file.error() != QFileDevice::NoError) {
        if (error)
            *error = tr("Cannot read %1: %2").arg(QDir::toNativeSeparators(path), file.errorString());
        return false;
    }
    m_filePath = QFileInfo(path).absoluteFilePath();
    m_diskContent = bytes;
    clearTraceback();
    setLanguage(languageForFile(path));
    setText(QString::fromUtf8(bytes));
    setModified(false);
    setCursorPosition(0, 0);
    updateMarginWidth();
    return true;
}

bool ScriptEditor::save(QString *error)
{
    if (m_filePath.isEmpty()) {
        if (error)
            *error = tr("No file to save to.");
        return false;
    }
    QSaveFile file(m_filePath);
    const QByteArray bytes = text().toUtf8();
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) < 0 || !file.commit()) {
        if (error)
            *error = tr("Cannot save %1: %2").arg(QDir::toNativeSeparators(m_filePath), file.errorString());
        return false;
    }
    m_diskContent = bytes;
    setModified(false);
    return true;
}

void ScriptEditor::closeFile()
{
    m_filePath.clear();
    m_diskContent.clear();
    clearTraceback();
    setLanguage(QString());
    clear();
    setModified(false);
}

void ScriptEditor::setLanguage(const QString &language)
{
    QsciLexer *old = lexer();
    QsciLexer *next = nullptr;
    if (language == QLatin1String("Python"))
        next = new QsciLexerPython(this);
    else if (language == QLatin1String("Bash"))
        next = new QsciLexerBash(this);
    else if (language == QLatin1String("JavaScript"))
        next = new QsciLexerJavaScript(this);
    else if (language == QLatin1String("JSON"))
        next = new QsciLexerJSON(this);
    m_language = next ? language : QString();
    setLexer(next);
    if (old)
        delete old->apis(); // before the lexer its preparation thread reads
    delete old;
    applyColours();
    applyCompletions();
}

void ScriptEditor::changeEvent(QEvent *event)
{
    QsciScintilla::changeEvent(event);
    if (event->type() == QEvent::PaletteChange)
        applyColours();
}

void ScriptEditor::applyColours()
{
    const QPalette pal = palette();
    const bool dark = isDark(pal);
    const QColor paper = pal.color(QPalette::Base);
    const QColor ink = pal.color(QPalette::Text);

    if (QsciLexer *lex = lexer()) {
        lex->setDefaultFont(m_font);
        lex->setFont(m_font);
        lex->setDefaultPaper(paper);
        lex->setPaper(paper);
        lex->setDefaultColor(ink);
        for (int style = 0; style < 128; ++style) {
            if (lex->description(style).isEmpty())
                continue;
            lex->setColor(forBackground(lex->color(style), dark), style);
        }
        lex->setColor(ink, lex->defaultStyle());
    } else {
        setPaper(paper);
        setColor(ink);
    }
    setMarginsBackgroundColor(pal.color(QPalette::Window));
    setMarginsForegroundColor(pal.color(QPalette::PlaceholderText));
    setFoldMarginColors(pal.color(QPalette::Window), pal.color(QPalette::Window));
    setCaretForegroundColor(ink);
    setCaretLineBackgroundColor(blend(paper, pal.color(QPalette::Highlight), dark ? 0.18 : 0.10));
    setMatchedBraceBackgroundColor(dark ? QColor(0x3a, 0x5a, 0x3a) : QColor(0xc8, 0xf0, 0xc8));
    setUnmatchedBraceForegroundColor(QColor(0xd3, 0x2f, 0x2f));
}

void ScriptEditor::updateMarginWidth()
{
    // Room for the digits of the line count plus one, and never less than 3.
    const QString digits = QString(qMax(3, int(QString::number(lines()).size()) + 1), QLatin1Char('9'));
    setMarginWidth(0, digits);
}

void ScriptEditor::setEditorFont(const QFont &font)
{
    m_font = font;
    setFont(m_font);
    setMarginsFont(m_font);
    applyColours();
    updateMarginWidth();
}

void ScriptEditor::setTabSize(int width)
{
    m_tabWidth = qBound(1, width, 16);
    setTabWidth(m_tabWidth);
    setIndentationWidth(m_tabWidth);
}

void ScriptEditor::setToolCompletions(const QStringList &entries)
{
    m_completions = entries;
    applyCompletions();
}

void ScriptEditor::applyCompletions()
{
    QsciLexer *lex = lexer();
    if (!lex)
        return;
    // QsciAPIs' destructor leaves the lexer pointing at it: forget it here, or the next
    // call (the project reloaded while its tools were loading: no completions, then
    // some) deletes it a second time.
    delete lex->apis();
    lex->setAPIs(nullptr);
    if (m_completions.isEmpty())
        return;
    // The APIs belong to the lexer; a new lexer (another file type) gets them again.
    auto *apis = new QsciAPIs(lex);
    for (const QString &entry : std::as_const(m_completions))
        apis->add(entry);
    apis->prepare();
}

QList<TracebackFrame> ScriptEditor::parseTraceback(const QString &stderrText)
{
    static const QRegularExpression frame(QStringLiteral(R"re(^\s*File "([^"]+)", line (\d+))re"),
                                          QRegularExpression::MultilineOption);
    QList<TracebackFrame> frames;
    auto it = frame.globalMatch(stderrText);
    while (it.hasNext()) {
        const QRegularExpressionMatch match = it.next();
        frames.append({match.captured(1), match.captured(2).toInt()});
    }
    return frames;
}

QList<int> ScriptEditor::markTraceback(const QString &stderrText)
{
    clearTraceback();
    if (m_filePath.isEmpty())
        return {};
    const QString base = QFileInfo(m_filePath).fileName();
    // The exception line ends a traceback: the last non-indented line after a frame.
    QString exceptionLine;
    const QStringList lines = stderrText.split(QLatin1Char('\n'));
    bool seenFrame = false;
    for (const QString &line : lines) {
        if (line.trimmed().startsWith(QLatin1String("File \"")))
            seenFrame = true;
        else if (seenFrame && !line.isEmpty() && !line.front().isSpace()
                 && !line.startsWith(QLatin1String("Traceback")))
            exceptionLine = line.trimmed();
    }
    const QList<TracebackFrame> frames = parseTraceback(stderrText);
    for (const TracebackFrame &frame : frames) {
        if (QFileInfo(frame.file).fileName() != base || frame.line < 1 || frame.line > this->lines())
            continue;
        const int line = frame.line - 1;
        fillIndicatorRange(line, 0, line, lineLength(line), TracebackIndicator);
        markerAdd(line, TracebackMarker);
        m_tracebackMessages.insert(frame.line, exceptionLine.isEmpty() ? tr("named in the traceback") : exceptionLine);
    }
    return tracebackLines();
}

void ScriptEditor::clearTraceback()
{
    clearIndicatorRange(0, 0, qMax(0, lines() - 1), lineLength(qMax(0, lines() - 1)), TracebackIndicator);
    markerDeleteAll(TracebackMarker);
    m_tracebackMessages.clear();
}

QList<int> ScriptEditor::tracebackLines() const
{
    QList<int> lines = m_tracebackMessages.keys();
    std::sort(lines.begin(), lines.end());
    return lines;
}

void ScriptEditor::showDwellTip(int position, int x, int y)
{
    if (position < 0)
        return;
    const int line = int(SendScintilla(SCI_LINEFROMPOSITION, position)) + 1;
    const QString message = m_tracebackMessages.value(line);
    if (!message.isEmpty())
        QToolTip::showText(mapToGlobal(QPoint(x, y)), message, this);
}

bool ScriptEditor::changedOnDisk() const
{
    if (m_filePath.isEmpty())
        return false;
    QFile file(m_filePath);
    if (!file.open(QIODevice::ReadOnly))
        return true; // removed or unreadable
    return file.readAll() != m_diskContent;
}
