package io.colsem.invariants

import java.util.Locale

import scala.collection.mutable

import org.apache.spark.sql.catalyst.expressions.{Alias, ExprId, Literal, OuterReference}
import org.apache.spark.sql.catalyst.plans.logical.{LeafNode, LogicalPlan, SubqueryAlias}
import org.apache.spark.sql.catalyst.util.AUTO_GENERATED_ALIAS
import org.apache.spark.sql.types.StringType

/**
 * Invariant 1: an output name never carries a relation qualifier. `SELECT t1.id` and `SELECT id`
 * are both named `id`; only a name the user wrote (`AS "t1.id"`, or a table column so named) may
 * contain `t1.id`. A name is checked when it was generated (Spark marks the Alias it generates for
 * an unnamed item) or when it differs from the name its attribute was defined with (a rule renamed
 * it); it leaks when it contains `relation.column` for a relation and column of the query.
 * Spark names a correlated reference `outer(relation.column)` on purpose (the qualifier says which
 * scope it comes from): text inside `outer(...)` is not checked when the plan has an outer
 * reference. A generated name shows a string literal's text unquoted (`concat('T.b: ', b)` is named
 * `concat(T.b: , b)`): the text of the item's string literals is not checked either.
 */
object QualifierLeak {

  private final case class Definition(name: String, userNamed: Boolean, literals: Seq[String] = Nil)

  def find(plan: LogicalPlan): Option[Violation] = {
    val output = plan.output
    if (output.isEmpty) return None
    val definitions = mutable.HashMap[ExprId, Definition]()
    val qualified = mutable.LinkedHashSet[(String, String)]()
    plan.foreach { node =>
      node match {
        case _: LeafNode | _: SubqueryAlias =>
          node.output.foreach { a =>
            if (node.isInstanceOf[LeafNode])
              definitions(a.exprId) = Definition(a.name, userNamed = true)
            a.qualifier.lastOption.foreach(q => qualified += q -> a.name)
          }
        case _ =>
      }
      node.expressions.foreach(_.foreach {
        case alias: Alias =>
          definitions(alias.exprId) = Definition(
            alias.name,
            userNamed = !alias.metadata.contains(AUTO_GENERATED_ALIAS),
            literals = dottedText(alias))
        case _ =>
      })
    }
    lazy val correlated = plan.collectWithSubqueries {
      case n if n.expressions.exists(_.find(_.isInstanceOf[OuterReference]).isDefined) => n
    }.nonEmpty
    output.zipWithIndex.iterator.flatMap { case (a, i) =>
      val definition = definitions.get(a.exprId)
      val chosenByUser = definition.exists(d => d.userNamed && d.name == a.name)
      val generated = definition.fold(a.name)(d => withoutTexts(a.name, d.literals))
      if (chosenByUser) None
      else leak(generated, qualified)
        .flatMap(q =>
          if (correlated) leak(withoutOuterReferences(generated), qualified) else Some(q))
        .map(q => (a, i, q))
    }.take(1).toList.headOption.map { case (a, i, (relation, column)) =>
      Violation.schemaChanged(
        1,
        culprit = "analysis (the analyzer or a rule that names output columns)",
        problem = s"output column ${i + 1} is named ${quote(a.name)}, which carries the " +
          s"qualifier ${quote(relation)} of column ${quote(column)}; a generated name must be " +
          s"${quote(column)}-based without the relation (write AS `$relation.$column` to choose " +
          "a dotted name)",
        diff = s"analyzed output ${Schemas.render(Schemas.physical(output))}")
    }
  }

  /** The (relation, column) whose qualified form `name` contains, as whole words. */
  private def leak(
      written: String,
      qualified: Iterable[(String, String)]): Option[(String, String)] = {
    val name = written.toLowerCase(Locale.ROOT)
    qualified.find { case (relation, column) =>
      val r = relation.toLowerCase(Locale.ROOT)
      val c = column.toLowerCase(Locale.ROOT)
      Seq(s"$r.$c", s"`$r`.`$c`", s"$r.`$c`", s"`$r`.$c").exists(containsWord(name, _))
    }
  }

  /** The texts of the string literals in `alias` that could read as `relation.column`. */
  private def dottedText(alias: Alias): Seq[String] = alias.child.collect {
    case Literal(v, _: StringType) if v != null && v.toString.contains(".") => v.toString
  }.sortBy(-_.length)

  /** `name` with each of `texts` cut out (longest first, so a text inside another goes with it). */
  private def withoutTexts(name: String, texts: Seq[String]): String =
    texts.foldLeft(name)((rest, text) => rest.replace(text, " "))

  /** `name` without the `outer(...)` spans Spark writes for correlated references. */
  private[invariants] def withoutOuterReferences(name: String): String = {
    val out = new StringBuilder
    var i = 0
    while (i < name.length) {
      if (name.regionMatches(true, i, "outer(", 0, 6) &&
          (i == 0 || !(name.charAt(i - 1).isLetterOrDigit || name.charAt(i - 1) == '_'))) {
        var depth = 1
        var j = i + 6
        while (j < name.length && depth > 0) {
          if (name.charAt(j) == '(') depth += 1 else if (name.charAt(j) == ')') depth -= 1
          j += 1
        }
        out ++= "outer()"
        i = j
      } else {
        out += name.charAt(i)
        i += 1
      }
    }
    out.toString
  }

  private def containsWord(text: String, word: String): Boolean = {
    def boundary(i: Int): Boolean =
      i < 0 || i >= text.length || !(text.charAt(i).isLetterOrDigit || text.charAt(i) == '_')
    var from = text.indexOf(word)
    while (from >= 0) {
      if (boundary(from - 1) && boundary(from + word.length)) return true
      from = text.indexOf(word, from + 1)
    }
    false
  }

  private def quote(name: String): String = s"`${name.replace("`", "``")}`"
}
