package io.colsem.lca

import scala.collection.mutable

import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.catalyst.analysis.{Star, UnresolvedAlias, UnresolvedAttribute, UnresolvedExtractValue, UnresolvedFunction, UnresolvedHaving}
import org.apache.spark.sql.catalyst.expressions.{Alias, Attribute, Expression, ExtractValue, Generator, LateralColumnAliasReference, Literal, NamedExpression, Nondeterministic, SubqueryExpression, UnresolvedNamedLambdaVariable, UnresolvedWindowExpression, UserDefinedExpression, WindowExpression}
import org.apache.spark.sql.catalyst.expressions.aggregate.{AggregateExpression, AggregateFunction}
import org.apache.spark.sql.catalyst.plans.logical.{Aggregate, LocalRelation, LogicalPlan, Project, Window}
import org.apache.spark.sql.catalyst.rules.Rule
import org.apache.spark.sql.catalyst.trees.{CurrentOrigin, TreeNodeTag}
import org.apache.spark.sql.catalyst.trees.TreePattern.{LATERAL_COLUMN_ALIAS_REFERENCE, UNRESOLVED_ATTRIBUTE}

import io.colsem.{ColsemConf, ColsemErrors, FunctionKinds, LateralAliasCandidate, PlanTags}

/**
 * Resolution rule (last in each Resolution iteration): resolves the [[LateralAliasCandidate]]s of a
 * SELECT list whose input is resolved, all alias levels at once.
 *
 * Each candidate becomes, in priority order, the FROM input's column of that name, the one earlier
 * alias of that name (two of them: ambiguity error), or the plain unresolved name again (Spark then
 * resolves it as an outer reference or reports it). Aliases that later items use are computed once,
 * in a chain of Projects below the SELECT list, one Project per dependency level; each level is
 * resolved immediately (a small analyzer run over its inputs), so a chain of N aliases needs no N
 * analyzer iterations and no alias expression is ever copied. Aggregate lists: see
 * [[ResolveLateralAliases#rewriteAggregate]]. Whatever this rule cannot rewrite (a level that does
 * not resolve on its own) gets its plain names back, and Spark's native support applies.
 */
object ResolveLateralAliases {
  /** Prefix of the names aliases are computed under below their SELECT list. */
  val PrivatePrefix = "__colsem_lca_"

  /** `plan`'s output without the columns computed for lateral aliases: the columns a name in the
   *  SELECT list above it may mean, and so the ones an error may suggest. */
  def visibleOutput(plan: LogicalPlan): Seq[Attribute] = plan.output.filterNot(_.name.startsWith(PrivatePrefix))

  /** Marks the native LateralColumnAliasReference nodes colsem puts into unaliased items only so
   *  that Spark names those items exactly as its native support would. */
  val NamingOnly: TreeNodeTag[Unit] = TreeNodeTag[Unit]("colsem.lateralAlias.namingOnly")

  /** Once an item has its name, its naming-only references become the attributes they wrap. */
  def unwrapNamedReferences(plan: LogicalPlan): LogicalPlan = plan.mapExpressions { e =>
    if (e.exists(_.isInstanceOf[UnresolvedAlias])) e
    else e.transformWithPruning(_.containsPattern(LATERAL_COLUMN_ALIAS_REFERENCE)) {
      case r: LateralColumnAliasReference if r.getTagValue(NamingOnly).isDefined => r.ne match {
        case a: Alias => a.child
        case other => other
      }
    }
  }
}

class ResolveLateralAliases(session: SparkSession) extends Rule[LogicalPlan] {

  override def apply(plan: LogicalPlan): LogicalPlan = {
    if (!plan.containsAnyPattern(UNRESOLVED_ATTRIBUTE, LATERAL_COLUMN_ALIAS_REFERENCE)) return plan
    // Aggregates a HAVING sits on: Spark needs them to stay directly below it.
    val havingInputs = plan.collect { case UnresolvedHaving(_, a: Aggregate) => a }
    plan.resolveOperatorsUpWithPruning(
        _.containsAnyPattern(UNRESOLVED_ATTRIBUTE, LATERAL_COLUMN_ALIAS_REFERENCE)) {
      // A star still unexpanded here would expand over the aliases computed below the list (the
      // fuzzer found `SELECT true AS a, a AND b, * FROM t` listing `a` twice; a ColumnHidingStar
      // always waits one iteration): wait for Spark's ResolveReferences to expand it over the FROM
      // input first.
      case p: Project if hasStar(p.projectList) => p
      case a: Aggregate if hasStar(a.aggregateExpressions) => a
      // A SELECT list with an aggregate and no GROUP BY is a global aggregate that Spark's
      // GlobalAggregates turns into an Aggregate once the list resolves: treat it as one now, or a
      // per-group reference (`SELECT true AS y, CASE WHEN y THEN 5 ELSE count(s) END`) would be
      // computed below it, outside any aggregate (the fuzzer's MISSING_GROUP_BY).
      case p @ Project(projectList, child) if child.resolved && projectList.exists(hasCandidate) &&
          projectList.exists(hasAggregateCall(_, inWindow = false)) =>
        rewriteAggregate(Aggregate(Nil, projectList, child), underHaving = false).getOrElse(unmark(p))
      case p @ Project(projectList, child) if child.resolved && projectList.exists(hasCandidate) =>
        rewriteProject(p).getOrElse(unmark(p))
      case a: Aggregate if a.child.resolved && a.aggregateExpressions.exists(hasCandidate) =>
        rewriteAggregate(a, underHaving = havingInputs.exists(_ eq a)).getOrElse(unmark(a))
      case other if other.childrenResolved && other.expressions.exists(hasCandidate) =>
        unmark(other)
      case other if other.containsPattern(LATERAL_COLUMN_ALIAS_REFERENCE) =>
        ResolveLateralAliases.unwrapNamedReferences(other)
    }
  }

  private def hasStar(list: Seq[Expression]): Boolean = list.exists(_.exists(_.isInstanceOf[Star]))

  private def hasCandidate(e: Expression): Boolean =
    e.containsPattern(UNRESOLVED_ATTRIBUTE) && e.exists(_.isInstanceOf[LateralAliasCandidate])

  private def unmark(plan: LogicalPlan): LogicalPlan = plan.mapExpressions(unmarkExpression)

  private def unmarkExpression(e: Expression): Expression = e.transform {
    case UnresolvedAlias(c: LateralAliasCandidate, None) => c.attribute
    case c: LateralAliasCandidate => c.attribute
  }

  /** A SELECT list: chains of used aliases in Projects below it, the list on top; None when a
   *  level does not resolve on its own (the native path then gets the plain names). */
  private def rewriteProject(p: Project): Option[LogicalPlan] = {
    val list = new SelectList(p.projectList.toIndexedSeq, p.child)
    list.materialize(list.used).map { below =>
      val top = list.items.indices.map { i =>
        list.computed.get(i).map(list.output(i, _)).getOrElse(list.items(i) match {
          case UnresolvedAlias(c: LateralAliasCandidate, None) => list.meaning((i, c)) match {
            case Right(j) => list.reference(c, j)
            case Left(expr) => UnresolvedAlias(expr)
          }
          case u @ UnresolvedAlias(_, None) =>
            list.substitute(i, u, forNaming = true).asInstanceOf[NamedExpression]
          case item => list.substitute(i, item).asInstanceOf[NamedExpression]
        })
      }
      Project(top, below)
    }
  }

  /**
   * An aggregate SELECT list. Aliases used inside aggregate function arguments (`SELECT s1 * 2
   * AS x, sum(x)`) or named in GROUP BY (`GROUP BY y` with `x + 1 AS y`) are per-row values: they
   * are computed once, in Projects below the Aggregate, and read there. References outside
   * aggregate functions are per-group; those get their plain names back for Spark's native
   * support, which computes them in a Project above the Aggregate; except below a HAVING with a
   * window function in the list, where that Project would break the plan shape Spark needs (its
   * native support refuses these): there deterministic per-group references are replaced by the
   * expression they name (an aggregate in it is computed once by the Aggregate anyway). None when
   * there is nothing to do, or a per-row alias does not resolve on its own (an aggregate inside
   * it, say), or a per-group one under such a HAVING is non-deterministic.
   */
  private def rewriteAggregate(a: Aggregate, underHaving: Boolean): Option[LogicalPlan] = {
    val list = new SelectList(a.aggregateExpressions.toIndexedSeq, a.child)
    val perRow = mutable.LinkedHashSet.empty[Int]
    def collectPerRow(i: Int, e: Expression, inAggregate: Boolean, inWindow: Boolean): Unit = e match {
      case c: LateralAliasCandidate =>
        list.meaning((i, c)) match {
          case Right(j) if inAggregate => perRow += j
          case _ =>
        }
      case w if isWindow(w) => w.children.foreach(collectPerRow(i, _, inAggregate, inWindow = true))
      case f if !inWindow && isAggregateCall(f) => f.children.foreach(collectPerRow(i, _, true, false))
      case other => other.children.foreach(collectPerRow(i, _, inAggregate, inWindow))
    }
    list.items.indices.foreach(i => collectPerRow(i, list.items(i), inAggregate = false, inWindow = false))
    // GROUP BY names that are no input column but an alias: the alias's expression, as Spark's
    // own GROUP BY alias support would substitute it, with its lateral references inlined.
    val groupedAliases = a.groupingExpressions.map {
      case u: UnresolvedAttribute if u.nameParts.size == 1 &&
          a.child.resolve(u.nameParts, conf.resolver).isEmpty =>
        list.items.indices.filter(j => list.items(j) match {
          case al: Alias if !PlanTags.isImplicitName(al) => conf.resolver(al.name, u.nameParts.head)
          case _ => false
        }) match {
          case Seq(j) => Some(j)
          case _ => None
        }
      case _ => None
    }
    val inlinePerGroup = underHaving && a.aggregateExpressions.exists(_.exists(isWindow))
    val perGroup = mutable.LinkedHashSet.empty[Int]
    if (inlinePerGroup) {
      list.items.indices.foreach { i =>
        list.items(i).foreach {
          case c: LateralAliasCandidate => list.meaning((i, c)) match {
            case Right(j) if !perRow.contains(j) => perGroup += j
            case _ =>
          }
          case _ =>
        }
      }
      if (list.closure(perGroup.toSet).exists(j => list.items(j).exists(isNondeterministicCall))) {
        return None
      }
    }
    if (perRow.isEmpty && perGroup.isEmpty && groupedAliases.forall(_.isEmpty)) return None
    val below =
      if (perRow.isEmpty) Some(a.child)
      else list.materialize(list.closure(perRow.toSet), copies = true)
    below.map { below =>
      def substitute(i: Int, e: Expression, inAggregate: Boolean, inWindow: Boolean): Expression =
        e match {
          case c: LateralAliasCandidate => list.meaning((i, c)) match {
            case Right(j) if inAggregate && list.computed.contains(j) => list.value(c, j, asWritten = true)
            case Right(j) if inlinePerGroup =>
              c.nameParts.tail.foldLeft(list.inline(j))((b, f) => UnresolvedExtractValue(b, Literal(f)))
            case _ => c
          }
          case w if isWindow(w) => w.mapChildren(substitute(i, _, inAggregate, inWindow = true))
          case f if !inWindow && isAggregateCall(f) => f.mapChildren(substitute(i, _, true, false))
          case other => other.mapChildren(substitute(i, _, inAggregate, inWindow))
        }
      val aggregates = list.items.indices.map { i =>
        list.items(i) match {
          // A GROUP BY alias that uses other aliases: the same inlined expression as its grouping
          // expression, so that Spark matches the two (the fuzzer found `SELECT 1 AS s, k + s AS z
          // ... GROUP BY s, z` failing with MISSING_AGGREGATION on `k`).
          case a: Alias if groupedAliases.contains(Some(i)) && a.exists(_.isInstanceOf[LateralAliasCandidate]) =>
            Alias(list.inline(i), a.name)(a.exprId, a.qualifier, a.explicitMetadata, a.nonInheritableMetadataKeys)
          case item =>
            unmarkExpression(substitute(i, item, inAggregate = false, inWindow = false)).asInstanceOf[NamedExpression]
        }
      }
      val groups = a.groupingExpressions.zip(groupedAliases).map {
        case (_, Some(j)) => list.inline(j)
        case (g, None) => g
      }
      a.copy(groupingExpressions = groups, aggregateExpressions = aggregates, child = below)
    }
  }

  /** Native Spark's deepest lateral-alias chain: two analyzer iterations per level (49 at the
   *  default `spark.sql.analyzer.maxIterations`, 100). */
  private def nativeDepth: Int = (conf.analyzerMaxIterations - 2) / 2
  /** The most aliases folded into one expression in a row in deeper chains. */
  private val FoldDepth = 8
  /** The largest expression (in nodes) a folded alias may become. */
  private val FoldSize = 64

  /** Whether recomputing this alias inside its user is as good as reading it: deterministic,
   *  no UDF, aggregate, window, generator or subquery (codegen shares the common part). */
  private def isPlainRowExpression(item: NamedExpression): Boolean = item match {
    case a: Alias => !a.child.exists(e => !isPlainNode(e))
    case _ => false
  }

  private def isPlainNode(node: Expression): Boolean = node match {
    case u: UnresolvedFunction =>
      !u.isDistinct && u.filter.isEmpty && FunctionKinds.isBuiltin(u) && !FunctionKinds.isGenerator(session, u) &&
        Seq(classOf[Nondeterministic], classOf[AggregateFunction])
          .forall(kind => !FunctionKinds.implementedBy(session, u, kind))
    case _: SubqueryExpression | _: UnresolvedWindowExpression | _: WindowExpression => false
    case _: LateralAliasCandidate | _: UnresolvedAttribute => true
    case e if e.resolved => e.deterministic && !e.isInstanceOf[UserDefinedExpression] &&
      !e.isInstanceOf[AggregateExpression] && !e.isInstanceOf[Generator]
    case _ => true
  }

  private def isWindow(e: Expression): Boolean =
    e.isInstanceOf[UnresolvedWindowExpression] || e.isInstanceOf[WindowExpression]

  /** Whether an aggregate function is called outside any window function. */
  private def hasAggregateCall(e: Expression, inWindow: Boolean): Boolean = e match {
    case w if isWindow(w) => w.children.exists(hasAggregateCall(_, inWindow = true))
    case f if !inWindow && isAggregateCall(f) => true
    case _: SubqueryExpression => false
    case other => other.children.exists(hasAggregateCall(_, inWindow))
  }

  /** Whether a (possibly still unresolved) call is to an aggregate function. */
  private def isAggregateCall(e: Expression): Boolean = e match {
    case _: AggregateExpression | _: AggregateFunction => true
    case u: UnresolvedFunction => functionIs(u, classOf[AggregateFunction])
    case _ => false
  }

  private def isNondeterministicCall(e: Expression): Boolean = e match {
    case u: UnresolvedFunction => functionIs(u, classOf[Nondeterministic])
    case resolved => !resolved.deterministic && resolved.resolved
  }

  private def functionIs(u: UnresolvedFunction, kind: Class[_]): Boolean =
    FunctionKinds.implementedBy(session, u, kind)

  /**
   * The lateral alias candidates of one SELECT list over its input: what each means (the input's
   * column, which first wins; the one earlier alias of that name; or nothing), and how to compute
   * the aliases others use, once each, in a chain of Projects below the list.
   */
  private class SelectList(val items: IndexedSeq[NamedExpression], input: LogicalPlan) {
    private val resolver = conf.resolver
    private val dependsOn = Array.fill(items.size)(mutable.LinkedHashSet.empty[Int])
    /** Keyed by item too: which earlier aliases a name can mean depends on the item's position. */
    val meaning = mutable.HashMap.empty[(Int, LateralAliasCandidate), Either[Expression, Int]]
    /** The attribute of each alias computed below the list. */
    val computed = mutable.HashMap.empty[Int, Attribute]
    /** Aliases folded into their one user instead of being computed below (deep chains only). */
    private val folded = mutable.HashSet.empty[Int]
    private val foldedValue = mutable.HashMap.empty[Int, Expression]

    items.indices.foreach { i =>
      items(i).foreach {
        case c: LateralAliasCandidate if !meaning.contains((i, c)) =>
          meaning((i, c)) = input.resolve(c.nameParts, resolver) match {
            case Some(column) => Left(column)
            // A parameterless function (`current_user`) comes before an alias, as in Spark.
            case None if c.nameParts.size == 1 && FunctionKinds.isLiteralFunction(session, c.nameParts.head) =>
              Left(c.attribute)
            case None =>
              (0 until i).filter(j => items(j) match {
                case a: Alias if !PlanTags.isImplicitName(a) => resolver(a.name, c.nameParts.head)
                case _ => false
              }) match {
                case Seq(j) =>
                  dependsOn(i) += j
                  Right(j)
                case Seq() => Left(c.attribute)
                case many => throw ColsemErrors.ambiguousLateralAlias(
                  c.attribute.name, many.map(items(_).origin), c.attribute.origin)
              }
          }
        case _ =>
      }
    }

    /** Aliases some item uses. */
    def used: Set[Int] = dependsOn.flatten.toSet

    /** `wanted` and every alias they use, transitively. */
    def closure(wanted: Set[Int]): Set[Int] = {
      val all = mutable.LinkedHashSet.empty[Int] ++ wanted
      (items.size - 1 to 0 by -1).foreach(i => if (all.contains(i)) all ++= dependsOn(i))
      all.toSet
    }

    /** Whether the aliases are computed under private names (see [[privateCopy]]). */
    private var privateNames = false

    /** Alias i, computed below the list, as the list's item i: under a private name, as its own
     *  name and expression id again, so the list's output is what it would be without colsem. */
    def output(i: Int, computedAt: Attribute): NamedExpression = items(i) match {
      case a: Alias if privateNames => CurrentOrigin.withOrigin(a.origin) { // errors point at the item
        Alias(computedAt, a.name)(a.exprId, a.qualifier, a.explicitMetadata, a.nonInheritableMetadataKeys)
      }
      case _ => computedAt
    }

    /** A lateral alias reference as Spark's native support would resolve it: the alias's
     *  attribute under the name as written, or the named struct field of it. */
    def reference(c: LateralAliasCandidate, j: Int): NamedExpression = {
      val base = computed(j).withName(c.nameParts.head)
      if (c.nameParts.size == 1) base
      else Alias(value(c, j, asWritten = true), c.nameParts.last)()
    }

    /** Alias j's expression with every lateral reference in it replaced by the expression it
     *  names, recursively (for GROUP BY, which groups by expressions, not by select items). */
    def inline(j: Int): Expression = items(j) match {
      case a: Alias => a.child.transformUp {
        case c: LateralAliasCandidate => meaning((j, c)) match {
          case Left(expr) => expr
          case Right(k) => c.nameParts.tail.foldLeft(inline(k))((b, f) => UnresolvedExtractValue(b, Literal(f)))
        }
      }
      case other => other
    }

    /** The value a reference reads (no alias around a struct field). asWritten: the column under
     *  the name as written, where it names an unaliased item; elsewhere under its private name,
     *  so that every reference to it is the same attribute (CollapseProject counts references by
     *  attribute, names included: split names let it inline a doubling chain exponentially). */
    def value(c: LateralAliasCandidate, j: Int, asWritten: Boolean): Expression =
      if (folded.contains(j)) {
        c.nameParts.tail.foldLeft(foldedExpression(j))((b, f) => UnresolvedExtractValue(b, Literal(f)))
      } else {
        val column = if (asWritten || !privateNames) computed(j).withName(c.nameParts.head) else computed(j)
        c.nameParts.tail.foldLeft(column: Expression)((b, f) => ExtractValue(b, Literal(f), resolver))
      }

    private def foldedExpression(j: Int): Expression = foldedValue.getOrElseUpdate(j,
      substitute(j, items(j).asInstanceOf[Alias].child))

    /** `e` (part of item i) with its candidates replaced. forNaming: the item has no alias, and
     *  Spark will name it from its text with native lateral alias references in it, so those are
     *  put there, and unwrapped once it has its name. asWritten: see [[value]]. */
    def substitute(i: Int, e: Expression, forNaming: Boolean = false, asWritten: Boolean = false): Expression = {
      // Native support refuses references inside a window function, and its rule raises
      // LATERAL_COLUMN_ALIAS_IN_WINDOW on any native reference it finds in one (the fuzzer found
      // `SELECT x AS a, sum(a) OVER ()` refused): there the column is named as written instead.
      // Outside windows an unaliased item keeps native references, as native Spark names
      // `rank() OVER (...) + v` (the fuzzer found that name changed otherwise).
      def replace(node: Expression, inWindow: Boolean): Expression = node match {
        case c: LateralAliasCandidate => meaning((i, c)) match {
          case Left(expr) => expr
          case Right(j) if forNaming && !inWindow && !folded.contains(j) =>
            val ref = LateralColumnAliasReference(reference(c, j), c.nameParts, computed(j))
            ref.setTagValue(ResolveLateralAliases.NamingOnly, ())
            ref
          case Right(j) => value(c, j, asWritten || forNaming)
        }
        case w if isWindow(w) => w.mapChildren(replace(_, inWindow = true))
        case other => other.mapChildren(replace(_, inWindow))
      }
      replace(e, inWindow = false)
    }

    /** Materialized aliases each alias really waits for: folded ones stand for what they use. */
    private def effectiveDeps(i: Int): Set[Int] =
      dependsOn(i).toSet.flatMap((j: Int) => if (folded.contains(j)) effectiveDeps(j) else Set(j))

    /** Each item's dependency level among the aliases that are computed below the list. */
    private def levelsOf(kept: Set[Int]): Array[Int] = {
      val level = Array.fill(items.size)(0)
      items.indices.foreach { i =>
        val deps = effectiveDeps(i).filter(kept)
        if (deps.nonEmpty) level(i) = deps.map(level).max + 1
      }
      level
    }

    /**
     * Past native Spark's depth (where its plans stop anyway), one Project per level would make
     * the plan as deep as the chain, and Spark's recursive plan processing slow and, past a few
     * hundred levels, overflowing. So a plain alias (a deterministic built-in expression) is
     * folded into the items that use it, as long as the folded expression stays small (at most
     * FoldSize nodes) and at most FoldDepth aliases are folded in a row; codegen evaluates such a
     * shared deterministic part once. Everything else (non-deterministic, a UDF, a subquery) is
     * still computed once below.
     */
    private def foldShortChains(which: Set[Int]): Unit = {
      val depth = mutable.HashMap.empty[Int, Int]
      val size = mutable.HashMap.empty[Int, Int]
      which.toSeq.sorted.foreach { j =>
        val deps = dependsOn(j).filter(folded)
        val d = 1 + (0 +: deps.toSeq.map(depth)).max
        val n = items(j).asInstanceOf[NamedExpression].collect {
          case c: LateralAliasCandidate => meaning((j, c)) match {
            case Right(k) if folded.contains(k) => size(k)
            case _ => 1
          }
          case _ => 1
        }.sum
        if (d <= FoldDepth && n <= FoldSize && isPlainRowExpression(items(j))) {
          folded += j
          depth(j) = d
          size(j) = n
        }
      }
    }

    /**
     * Whether a computed alias could capture a name the list leaves to Spark, which must see the
     * FROM input only (or an outer query): a plain name, a lambda variable or a candidate that is
     * no earlier alias, with the alias's name; or any subquery, whose names may reach out to the
     * list's input.
     */
    private def shadowsOtherNames(which: Set[Int]): Boolean = {
      def leftToSpark(i: Int, c: LateralAliasCandidate): Boolean = meaning((i, c)) match {
        case Left(e) => !e.resolved
        case Right(_) => false
      }
      val names = items.indices.flatMap { i =>
        items(i).collect {
          case u: UnresolvedAttribute => u.nameParts.head
          case v: UnresolvedNamedLambdaVariable => v.nameParts.head
          case c: LateralAliasCandidate if leftToSpark(i, c) => c.nameParts.head
        }
      }
      items.exists(_.exists(_.isInstanceOf[SubqueryExpression])) || which.exists(j => items(j) match {
        case a: Alias => names.exists(name => resolver(name, a.name))
        case _ => false
      })
    }

    /** Input with Projects computing the aliases `which`, one Project per dependency level,
     *  each resolved at once; fills `computed`. Under the aliases' own names, as Spark's native
     *  support builds them, unless that could capture another name (see [[privateCopy]]).
     *  copies: the aliases also stay in the list (an aggregate list; always private names);
     *  otherwise past native Spark's depth short plain chains may be folded into their users. */
    def materialize(which: Set[Int], copies: Boolean = false): Option[LogicalPlan] = {
      privateNames = copies || shadowsOtherNames(which)
      if (!copies && levelsOf(which).size > nativeDepth) foldShortChains(which)
      val kept = which -- folded
      val level = levelsOf(kept)
      val levels = kept.toSeq.groupBy(level).toSeq.sortBy(_._1)
      val maxDepth = ColsemConf.LateralAliasMaxDepth.readFrom(conf)
      if (levels.size > maxDepth) {
        val deepest = which.maxBy(level)
        throw ColsemErrors.lateralAliasTooDeep(levels.size, maxDepth, items(deepest).origin)
      }
      var below = input
      val complete = levels.forall { case (_, indices) =>
        val ordered = indices.sorted
        val pending = ordered.map { i =>
          val item = substitute(i, items(i)).asInstanceOf[NamedExpression]
          if (privateNames) privateCopy(item) else item
        }
        resolveLevel(pending, below) match {
          case Some((level, attributes)) =>
            ordered.zip(attributes).foreach { case (i, a) => computed(i) = a }
            below = level
            true
          case None => false
        }
      }
      if (complete) Some(below) else None
    }
  }

  /** An alias computed below its SELECT list, under a name of its own and a new expression id:
   *  under the alias's name it would be visible to the names the list leaves to Spark, which must
   *  see the FROM input only. The fuzzer found both: in an aggregate list, `SELECT k AS a, sum(a),
   *  a + 1 ... GROUP BY k` failed with MISSING_AGGREGATION (`a + 1` read the per-row column); in a
   *  plain list, the forward reference in `SELECT y + 1 AS x, k AS y, y * 2 AS z` answered where
   *  Spark reports UNRESOLVED_COLUMN. References to the copy are by attribute, named as written
   *  (see SelectList.value and SelectList.output). */
  private def privateCopy(item: NamedExpression): NamedExpression = item match {
    case a: Alias => Alias(a.child, ResolveLateralAliases.PrivatePrefix + a.name)()
    case other => other.newInstance()
  }

  /**
   * One level: `below` with the items added to its output, resolved at once with the session's
   * analyzer, and the items' attributes. None unless every item resolves as a projection, or as
   * window functions over one (the fuzzer found `SELECT v AS y, max(id) OVER (ORDER BY y) AS w,
   * w + 1` refused when a window alias sent the whole list to the native path, which refuses the
   * reference inside the window); an aggregate or a generator would change what the level's rows
   * are, so such aliases are left to the native path. A name only the input's hidden columns have
   * (`t2.k` over `JOIN ... USING (k)`, a file's `_metadata`) resolves in a second try that lists
   * them; Spark's AddMetadataColumns then exposes them from the input, as it does for the list.
   */
  private def resolveLevel(items: Seq[NamedExpression], below: LogicalPlan): Option[(LogicalPlan, Seq[Attribute])] = {
    val hidden = below.metadataOutput.filterNot(below.outputSet.contains)
    val tries = if (hidden.isEmpty) Seq(below.output) else Seq(below.output, below.output ++ hidden)
    tries.iterator.map(resolveLevelOver(items, below, _)).collectFirst { case Some(level) => level }
  }

  private def resolveLevelOver(items: Seq[NamedExpression], below: LogicalPlan,
      inputs: Seq[Attribute]): Option[(LogicalPlan, Seq[Attribute])] = {
    val relation = LocalRelation(inputs)
    val analyzed = session.sessionState.analyzer.execute(Project(below.output ++ items, relation))
    def projectionOrWindow(node: LogicalPlan): Boolean = node match {
      case _: Project | _: Window => true
      case r => r eq relation
    }
    if (analyzed.resolved && analyzed.output.size == below.output.size + items.size &&
        !analyzed.exists(node => !projectionOrWindow(node))) {
      val level = analyzed.transformUp { case r: LocalRelation if r eq relation => below }
      Some((level, analyzed.output.drop(below.output.size)))
    } else {
      None
    }
  }
}
